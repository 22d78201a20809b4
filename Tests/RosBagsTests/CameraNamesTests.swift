import RosBags
import Testing

/// Camera names made from a rig's topics.
struct CameraNamesTests {
    @Test func sharedPartsAreTakenOff() {
        #expect(BagCameraNames.names(for: ["/stereo/left/image_raw", "/stereo/right/image_raw"]) == ["left", "right"])
        #expect(BagCameraNames.names(for: ["/cam0/image_raw", "/cam1/image_raw"]) == ["cam0", "cam1"])
        #expect(BagCameraNames.names(for: ["/a/b/image", "/c/image"]) == ["a_b", "c"])
        #expect(BagCameraNames.names(for: ["/left", "/right", "/left/mono"]) == ["left", "right", "left_mono"])
    }

    @Test func namesThatCannotNameACameraAreNumbered() {
        // Characters outside letters, digits, - and _ become _; a name left empty or repeated is numbered.
        #expect(BagCameraNames.names(for: ["/x/~cam.a/img", "/x/cam b/img"]) == ["_cam_a", "cam_b"])
        #expect(BagCameraNames.names(for: ["/same", "/same"]) == ["same", "camera1"])
    }

    @Test func aNameGivenBeforeTheTopic() {
        #expect(BagCameraNames.split("left=/stereo/left/image_raw") == ("left", "/stereo/left/image_raw"))
        #expect(BagCameraNames.split("/stereo/left/image_raw") == (nil, "/stereo/left/image_raw"))
        #expect(BagCameraNames.split("=/x") == (nil, "=/x"))
    }
}
