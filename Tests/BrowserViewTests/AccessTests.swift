import HTTPTestSupport
import Testing
@testable import BrowserView

@Suite struct ServeAddressTests {
    @Test func portAloneBindsLoopback() throws {
        let address = try ServeAddress(parsing: "8080")
        #expect(address == ServeAddress(host: "127.0.0.1", port: 8080))
        #expect(address.isLoopback)
        #expect(address.exposureWarning(token: nil) == nil)
        #expect(address.pageURL(token: nil) == "http://127.0.0.1:8080/")
    }

    @Test func addressesAndIPv6() throws {
        #expect(try ServeAddress(parsing: "0.0.0.0:9000") == ServeAddress(host: "0.0.0.0", port: 9000))
        #expect(try ServeAddress(parsing: "[::1]:9000") == ServeAddress(host: "::1", port: 9000))
        #expect(try ServeAddress(parsing: "[::1]:9000").isLoopback)
        #expect(try ServeAddress(parsing: "localhost:0").isLoopback)
        #expect(try ServeAddress(parsing: "[::]:80").description == "[::]:80")
        #expect(try ServeAddress(parsing: "192.168.1.5:8080").pageURL(token: "abc") == "http://192.168.1.5:8080/?token=abc")
    }

    @Test func otherAddressesWarn() throws {
        let address = try ServeAddress(parsing: "0.0.0.0:8080")
        #expect(!address.isLoopback)
        #expect(address.exposureWarning(token: nil)
            == "warning: serving on 0.0.0.0:8080: anyone on the network who reaches it can watch the camera and take pictures; give --token to require a token in the page address")
        #expect(address.exposureWarning(token: "t")
            == "warning: serving on 0.0.0.0:8080: anyone on the network who reaches it can watch the camera and take pictures with the token in the page address")
    }

    @Test func badAddressesSayWhatIsAllowed() {
        #expect(throws: ServeAddressError.badPort("70000", "70000")) { try ServeAddress(parsing: "70000") }
        #expect(throws: ServeAddressError.badPort("host:", "")) { try ServeAddress(parsing: "host:") }
        #expect(throws: ServeAddressError.malformed(":80")) { try ServeAddress(parsing: ":80") }
        #expect(throws: ServeAddressError.malformed("a:b:80")) { try ServeAddress(parsing: "a:b:80") }
        #expect(throws: ServeAddressError.malformed("[::1]80")) { try ServeAddress(parsing: "[::1]80") }
        #expect(ServeAddressError.badPort("x:http", "http").description
            == "invalid address 'x:http': the port must be a number from 0 to 65535, found 'http'")
    }
}

@Suite struct ViewAccessTests {
    @Test func withoutTokenEverythingPasses() throws {
        #expect(try ViewAccess(token: nil).permits(queryToken: nil, authorization: nil))
    }

    @Test func tokenInQueryOrBearerHeader() throws {
        let access = try ViewAccess(token: "s3cret-T0ken")
        #expect(access.permits(queryToken: "s3cret-T0ken", authorization: nil))
        #expect(access.permits(queryToken: nil, authorization: "Bearer s3cret-T0ken"))
        #expect(!access.permits(queryToken: nil, authorization: nil))
        #expect(!access.permits(queryToken: "s3cret-T0ke", authorization: nil))
        #expect(!access.permits(queryToken: "s3cret-T0ken2", authorization: nil))
        #expect(!access.permits(queryToken: "", authorization: "Basic s3cret-T0ken"))
    }

    @Test func tokensMustBeURLSafe() {
        #expect(throws: ViewAccessError.emptyToken) { try ViewAccess(token: "") }
        #expect(throws: ViewAccessError.badCharacter("a&b", "&")) { try ViewAccess(token: "a&b") }
        #expect(ViewAccessError.badCharacter("a b", " ").description == "invalid token: ' ' is not allowed; use letters, digits and - . _ ~")
    }
}
