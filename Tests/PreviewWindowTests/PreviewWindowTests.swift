import Testing

@testable import PreviewWindow

@Suite struct PreviewWindowKeyTests {
    @Test func spaceAndEnterCaptureQQuitsOthersAreIgnored() {
        #expect(PreviewWindow.Event(key: 32) == .capture)
        #expect(PreviewWindow.Event(key: 13) == .capture)
        #expect(PreviewWindow.Event(key: Int32(UInt8(ascii: "q"))) == .quit)
        #expect(PreviewWindow.Event(key: Int32(UInt8(ascii: "Q"))) == .quit)
        #expect(PreviewWindow.Event(key: -1) == nil)
        #expect(PreviewWindow.Event(key: Int32(UInt8(ascii: "x"))) == nil)
    }
}
