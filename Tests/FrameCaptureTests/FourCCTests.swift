import FrameCapture
import Testing

@Suite struct FourCCTests {
    @Test func packsCharactersLittleEndian() {
        #expect(FourCC.yuyv.rawValue == 0x5659_5559)
        #expect(FourCC.mjpeg.description == "MJPG")
        #expect(FourCC("BGR3") == FourCC.bgr24)
        #expect(FourCC("TOOLONG") == nil)
    }
}
