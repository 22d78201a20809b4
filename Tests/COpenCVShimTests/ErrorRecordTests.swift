import COpenCVShim
import CShimCore
import Testing

/// The error record every shim fills (CShimCore.h), as the OpenCV shim fills it: a failure names
/// its shim and leaves no sizes or errno from before, a success clears the record.
@Suite struct ErrorRecordTests {
    @Test func aFailureNamesItsShimAndLeavesNothingFromBefore() {
        var error = shim_error()
        error.system_errno = 2
        error.width = 7
        error.height = 9
        error.file_bytes = 11
        #expect(msd_detector_detect(nil, nil, nil, &error) == .SHIM_STATUS_INVALID_ARGUMENT)
        #expect(error.status == .SHIM_STATUS_INVALID_ARGUMENT)
        #expect(error.area == .SHIM_AREA_DETECTION)
        #expect(error.system_errno == 0 && error.width == 0 && error.height == 0 && error.file_bytes == 0)
    }

    @Test func aSuccessClearsTheRecord() {
        var error = shim_error()
        #expect(msd_detector_detect(nil, nil, nil, &error) == .SHIM_STATUS_INVALID_ARGUMENT)
        #expect(error.message.0 != 0)
        var version = msd_opencv_version()
        #expect(msd_opencv_version_get(&version, &error) == .SHIM_STATUS_OK)
        #expect(error.status == .SHIM_STATUS_OK)
        #expect(error.area == .SHIM_AREA_DETECTION)
        #expect(error.message.0 == 0)
    }

    @Test func everyPixelFormatHasItsSize() {
        #expect(shim_pixel_format_bytes(.SHIM_PIXEL_FORMAT_GRAY8) == 1)
        #expect(shim_pixel_format_bytes(.SHIM_PIXEL_FORMAT_BGR24) == 3)
        #expect(shim_pixel_format_bytes(.SHIM_PIXEL_FORMAT_RGB24) == 3)
        #expect(shim_pixel_format_bytes(.SHIM_PIXEL_FORMAT_YUYV) == 2)
    }
}
