import Calibration
import Foundation
import MarkerDetection
import Testing

/// The files for other tools, read with those tools' own readers: mrcal's `mrcal.cameramodel`,
/// OpenCV's `cv2.FileStorage` and `cv2.projectPoints` (Kalibr's radtan is OpenCV's four
/// coefficients, equidistant is `cv2.fisheye`), ROS's `camera_calibration_parsers`; on OpenCV's
/// stereo sample (Debian's opencv-doc) and on a synthetic rig whose truth is known.
@Suite(.enabled(if: Python.hasOpenCV && Python.hasYAML, "/usr/bin/python3 with cv2 and yaml is not installed"))
struct OtherToolsFilesTests {
    /// Projects points through rig.yaml's cameras (cv2.projectPoints, or cv2.fisheye for the
    /// fisheye model), through camchain.yaml's (radtan as OpenCV's 4 coefficients, equidistant
    /// with cv2.fisheye) and through each mrcal model (mrcal.project), and prints the largest
    /// differences in pixels, the translations each file holds, and camera_info's P.
    static let reader = """
        import cv2, json, os, sys, yaml
        import numpy as np
        out = sys.argv[1]
        fs = cv2.FileStorage(os.path.join(out, "rig.yaml"), cv2.FILE_STORAGE_READ)
        cameras = fs.getNode("cameras")
        rng = np.random.default_rng(7)
        result = {"cameras": []}
        chain = None
        if os.path.exists(os.path.join(out, "camchain.yaml")):
            chain = yaml.safe_load(open(os.path.join(out, "camchain.yaml")))
        def project(points, K, D, fisheye):
            if fisheye:
                q, _ = cv2.fisheye.projectPoints(points.reshape(-1, 1, 3), np.zeros(3), np.zeros(3), K, D.reshape(-1))
            else:
                q, _ = cv2.projectPoints(points, np.zeros(3), np.zeros(3), K, D)
            return q.reshape(-1, 2)
        for index in range(cameras.size()):
            node = cameras.at(index)
            name = node.getNode("name").string()
            model = node.getNode("model").string()
            K, D = node.getNode("K").mat(), node.getNode("D").mat()
            w, h = int(node.getNode("image_width").real()), int(node.getNode("image_height").real())
            # Points in front of the camera that land across its whole image.
            pixels = np.column_stack([rng.uniform(0, w - 1, 200), rng.uniform(0, h - 1, 200)])
            if model == "fisheye":
                rays = cv2.fisheye.undistortPoints(pixels.reshape(-1, 1, 2), K, D.reshape(-1)).reshape(-1, 2)
            else:
                rays = cv2.undistortPoints(pixels.reshape(-1, 1, 2), K, D).reshape(-1, 2)
            points = np.column_stack([rays, np.ones(len(rays))]) * rng.uniform(0.5, 3, (len(rays), 1))
            q = project(points, K, D, model == "fisheye")
            entry = {"name": name, "model": model, "T": node.getNode("T").mat().reshape(-1).tolist(),
                     "R": node.getNode("R").mat().reshape(-1).tolist()}
            if chain is not None:
                cam = chain["cam%d" % index]
                fu, fv, pu, pv = cam["intrinsics"]
                Kc = np.array([[fu, 0, pu], [0, fv, pv], [0, 0, 1]])
                Dc = np.array(cam["distortion_coeffs"], float)
                assert cam["camera_model"] == "pinhole"
                qc = project(points, Kc, Dc, cam["distortion_model"] == "equidistant")
                entry["camchain_px"] = float(np.abs(qc - q).max())
                entry["camchain_model"] = cam["distortion_model"]
                entry["camchain_D"] = Dc.tolist()
                if "T_cn_cnm1" in cam:
                    entry["T_cn_cnm1"] = np.array(cam["T_cn_cnm1"], float).reshape(-1).tolist()
            path = os.path.join(out, "mrcal", name + ".cameramodel")
            if os.path.exists(path):
                import mrcal
                m = mrcal.cameramodel(path)
                qm = mrcal.project(points, *m.intrinsics())
                entry["mrcal_px"] = float(np.abs(qm - q).max())
                entry["mrcal_lensmodel"] = m.intrinsics()[0]
                entry["mrcal_extrinsics"] = m.extrinsics_rt_fromref().tolist()
                entry["mrcal_imagersize"] = m.imagersize().tolist()
            try:
                import camera_calibration_parsers as parsers
                cname, info = parsers.readCalibration(os.path.join(out, "camera_info", name + ".yaml"))
                entry["P"] = list(info.P)
                entry["info_D"] = list(info.D)
                entry["info_model"] = info.distortion_model
            except ImportError:
                info = yaml.safe_load(open(os.path.join(out, "camera_info", name + ".yaml")))
                entry["P"] = info["projection_matrix"]["data"]
                entry["info_D"] = info["distortion_coefficients"]["data"]
                entry["info_model"] = info["distortion_model"]
            result["cameras"].append(entry)
        print(json.dumps(result))
        """

    struct Read {
        var cameras: [[String: Any]]
    }

    static func read(_ out: String) throws -> Read {
        let output = try Python.run(reader, [out])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        return Read(cameras: try #require(json["cameras"] as? [[String: Any]]))
    }

    /// Writes each camera's views as `live`'s sidecars named after the view (`set_03.json`), so that
    /// a rig's sets match by name.
    static func sidecars(_ views: [[CalibrationView]], names: [String], pattern: String, root: String) throws -> [(String, String)] {
        try zip(names, views).map { name, views in
            let folder = "\(root)/\(name)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (index, view) in views.enumerated() {
                let stem = (view.name as NSString).deletingPathExtension
                let corners = view.points.map { "{\"id\":\($0.id),\"xy\":[\($0.image.x),\($0.image.y)]}" }
                let text = """
                    {"image":"\(stem).png","pattern":"\(pattern)","trigger":"request","frame_index":\(index),\
                    "width":\(view.imageSize.width),"height":\(view.imageSize.height),"valid":true,"markers":[],\
                    "corners":[\(corners.joined(separator: ","))],"sharpness":100}
                    """
                try text.write(toFile: "\(folder)/\(stem).json", atomically: true, encoding: .utf8)
                #expect(FileManager.default.createFile(atPath: "\(folder)/\(stem).png", contents: Data()))
            }
            return (name, folder)
        }
    }

    /// A synthetic rig (truth: the second camera 0.4 board widths = 3.2 squares to the right) seen
    /// on a 9x6 chessboard, solved from sidecars of `chessboard:9x6` and again with the same
    /// sidecars given the size `square=25mm`.
    static func syntheticRig(model: CameraModel, _ name: String = #function) throws
        -> (root: String, squares: CalibrationJob.RigWritten, metres: CalibrationJob.RigWritten, out: String)
    {
        let root = try temporaryFolder(name)
        var left = SyntheticRig.left, right = SyntheticRig.right
        if model == .fisheye {
            left = Camera(model: .fisheye, imageSize: left.imageSize, fx: 600, fy: 598, cx: 641.5, cy: 362, distortion: [0.08, -0.02, 0.005, -0.001])
            right = Camera(model: .fisheye, imageSize: right.imageSize, fx: 520, fy: 519, cx: 515, cy: 380.5, distortion: [0.06, -0.01, 0.002, 0.0005])
        }
        let poses = SyntheticViews.randomPoses(30, seed: 11)
        let views = try SyntheticRig.views(
            cameras: [left, right], poses: [.identity, SyntheticRig.rightPose], boardPoses: poses, noise: 0.2, seed: 11)
        let folders = try sidecars(views, names: ["left", "right"], pattern: "chessboard:9x6", root: root + "/pictures")
        let squares = try CalibrationJob(into: root + "/squares", input: nil).runRig(
            cameras: folders, pattern: nil, model: model, rectify: false)
        let out = root + "/metres"
        let metres = try CalibrationJob(into: out, input: nil).runRig(
            cameras: folders, pattern: try Pattern(parsing: "chessboard:9x6:square=25mm"), model: model, rectify: false)
        return (root, squares, metres, out)
    }

    /// With `square=25mm` every length is 0.025 m times the one in squares (within 0.1%); camchain
    /// projects as rig.yaml within 0.1 px (radtan through cv2's 4 coefficients); each mrcal model
    /// loads and projects within 0.01 px of rig.yaml; camera_info's Tx is -fx times the baseline in metres.
    @Test(.enabled(if: Mrcal.available, "/usr/bin/python3 with mrcal (Debian's python3-mrcal) is not installed"))
    func aSyntheticRigWithASizeIsInMetresInEveryFile() throws {
        let (root, squares, metres, out) = try Self.syntheticRig(model: .pinholeRadtan)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let inSquares = squares.report.result.cameras[1].extrinsics.baseline.value
        let inMetres = metres.report.result.cameras[1].extrinsics.baseline.value
        print("synthetic rig: baseline \(inSquares) squares (truth 3.2), \(inMetres) m (truth 0.08); ratio \(inMetres / inSquares)")
        #expect(abs(inMetres / inSquares / 0.025 - 1) < 0.001)
        #expect(abs(inSquares - 3.2) < 0.05)
        #expect(metres.report.units == .metres)
        #expect(squares.report.units == .squares)
        #expect(metres.report.summary.contains { $0.contains("are in metres (pattern chessboard:9x6:square=25mm)") })
        #expect(squares.report.summary.contains { $0.hasPrefix("  camchain.yaml left out: Kalibr's T_cn_cnm1 is in metres and the target has no size") })
        #expect(metres.paths.contains(out + "/camchain.yaml"))
        #expect(!squares.paths.contains(root + "/squares/camchain.yaml"))
        let read = try Self.read(out)
        let t = metres.report.result.cameras[1].extrinsics.pose.translation
        for (index, camera) in read.cameras.enumerated() {
            let camchain = try #require(camera["camchain_px"] as? Double)
            let mrcal = try #require(camera["mrcal_px"] as? Double)
            print("synthetic rig \(camera["name"]!): camchain \(camchain) px, mrcal \(mrcal) px from rig.yaml")
            #expect(camchain < 0.1)
            #expect(mrcal < 0.01)
            #expect(camera["camchain_model"] as? String == "radtan")
            #expect((camera["camchain_D"] as? [Double])?.count == 4)
            #expect(camera["mrcal_lensmodel"] as? String == "LENSMODEL_OPENCV4")
            let extrinsics = try #require(camera["mrcal_extrinsics"] as? [Double])
            let rigT = try #require(camera["T"] as? [Double])
            for axis in 0..<3 { #expect(abs(extrinsics[3 + axis] - rigT[axis]) < 1e-9) }
            if index == 1 {
                let chainT = try #require(camera["T_cn_cnm1"] as? [Double])
                for axis in 0..<3 { #expect(abs(chainT[4 * axis + 3] - t[axis]) < 1e-9) }
                let p = try #require(camera["P"] as? [Double])
                #expect(abs(-p[3] / p[0] - inMetres) < 1e-6, "Tx \(p[3]) for fx \(p[0]) and baseline \(inMetres) m")
            }
        }
    }

    /// A fisheye rig's camchain is Kalibr's equidistant, projecting as cv2.fisheye does with
    /// rig.yaml's; mrcal 2.2 has no such model, so no .cameramodel is written and the summary says why.
    @Test func aFisheyeRigHasAnEquidistantCamchainAndNoMrcalModel() throws {
        let (root, _, metres, out) = try Self.syntheticRig(model: .fisheye)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let read = try Self.read(out)
        for camera in read.cameras {
            #expect(camera["camchain_model"] as? String == "equidistant")
            let camchain = try #require(camera["camchain_px"] as? Double)
            #expect(camchain < 0.1, "camchain \(camchain) px from rig.yaml")
            #expect(camera["mrcal_px"] == nil)
            #expect(camera["info_model"] as? String == "equidistant")
        }
        #expect(!FileManager.default.fileExists(atPath: out + "/mrcal"))
        #expect(metres.report.summary.contains("  mrcal/left.cameramodel left out: mrcal 2.2 has no Kannala-Brandt (cv::fisheye) lens model, and no other of its models is the same camera"))
    }

    /// OpenCV's stereo pair (real pictures): pinhole-radtan writes a camchain within 0.1 px of
    /// rig.yaml and mrcal models within 0.01 px; `square=25mm` scales the baseline by exactly
    /// 0.025 (within 0.1%) against the solve in squares; the default pinhole model's and the
    /// rational model's camchain is left out with the reason.
    @Test(.enabled(if: StereoSample.available, "OpenCV's stereo sample is not installed (Debian's opencv-doc)"), .enabled(if: Mrcal.available, "/usr/bin/python3 with mrcal (Debian's python3-mrcal) is not installed"))
    func theStereoSampleIsReadBackByEveryTool() throws {
        let folders = try StereoSample.folders()
        defer { try? FileManager.default.removeItem(atPath: folders.root) }
        let cameras = [("left", folders.left), ("right", folders.right)]
        func solve(_ pattern: String, _ model: CameraModel, _ out: String) throws -> CalibrationJob.RigWritten {
            try CalibrationJob(into: "\(folders.root)/\(out)", input: nil).runRig(
                cameras: cameras, pattern: try Pattern(parsing: pattern), model: model, rectify: false)
        }
        let metres = try solve("chessboard:9x6:square=25mm", .pinholeRadtan, "radtan")
        let squares = try solve("chessboard:9x6", .pinholeRadtan, "squares")
        let b1 = metres.report.result.cameras[1].extrinsics.baseline.value, b0 = squares.report.result.cameras[1].extrinsics.baseline.value
        print("stereo sample: baseline \(b0) squares, \(b1) m; ratio \(b1 / b0)")
        #expect(abs(b1 / b0 / 0.025 - 1) < 0.001)
        let read = try Self.read("\(folders.root)/radtan")
        for camera in read.cameras {
            let camchain = try #require(camera["camchain_px"] as? Double), mrcal = try #require(camera["mrcal_px"] as? Double)
            print("stereo sample \(camera["name"]!): camchain \(camchain) px, mrcal \(mrcal) px from rig.yaml")
            #expect(camchain < 0.1)
            #expect(mrcal < 0.01)
        }
        let pinhole = try solve("chessboard:9x6:square=25mm", .pinhole, "pinhole")
        #expect(!pinhole.paths.contains("\(folders.root)/pinhole/camchain.yaml"))
        let reason = try #require(pinhole.report.camchain.leftOut)
        #expect(reason.hasPrefix("camera left is a pinhole camera: its k3 is "))
        #expect(reason.hasSuffix("calibrate with --model pinhole-radtan (k3 held at 0) for a camchain"))
        let pinholeRead = try Self.read("\(folders.root)/pinhole")
        for camera in pinholeRead.cameras {
            #expect(camera["camchain_px"] == nil)
            #expect(try #require(camera["mrcal_px"] as? Double) < 0.01)
            #expect(camera["mrcal_lensmodel"] as? String == "LENSMODEL_OPENCV5")
        }
        let rational = try solve("chessboard:9x6:square=25mm", .rational, "rational")
        #expect(rational.report.camchain.leftOut?.contains("Kalibr has no rational model") == true)
        for camera in try Self.read("\(folders.root)/rational").cameras {
            #expect(try #require(camera["mrcal_px"] as? Double) < 0.01)
            #expect(camera["mrcal_lensmodel"] as? String == "LENSMODEL_OPENCV8")
        }
        // One camera_info per camera: each camera's own solve is in NAME-alone/, without one.
        #expect(FileManager.default.fileExists(atPath: "\(folders.root)/radtan/left-alone/calibration.yaml"))
        #expect(!FileManager.default.fileExists(atPath: "\(folders.root)/radtan/left-alone/camera_info.yaml"))
        #expect(!FileManager.default.fileExists(atPath: "\(folders.root)/radtan/left"))
    }

    /// One camera's calibration.cameramodel, for each model mrcal holds, loads in mrcal and projects
    /// within 0.01 px of calibration.yaml read by cv2.FileStorage; the fisheye's is left out.
    @Test(.enabled(if: StereoSample.available, "OpenCV's stereo sample is not installed (Debian's opencv-doc)"), .enabled(if: Mrcal.available, "/usr/bin/python3 with mrcal (Debian's python3-mrcal) is not installed"),
          arguments: [CameraModel.pinhole, .pinholeRadtan, .rational, .fisheye])
    func oneCamerasMrcalModelProjectsAsItsCalibrationYAML(model: CameraModel) throws {
        let folders = try StereoSample.folders("mrcal-\(model)")
        defer { try? FileManager.default.removeItem(atPath: folders.root) }
        let out = folders.root + "/cal"
        let written = try CalibrationJob(into: out, input: folders.left).run(
            pictures: folders.left, pattern: try Pattern(parsing: "chessboard:9x6:square=25mm"), model: model, crossValidate: false)
        let path = out + "/calibration.cameramodel"
        guard model != .fisheye else {
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(!written.paths.contains(path))
            #expect(written.report.summary.contains { $0.hasPrefix("calibration.cameramodel left out: mrcal 2.2 has no Kannala-Brandt") })
            return
        }
        #expect(written.paths.contains(path))
        let output = try Python.run("""
            import cv2, json, sys, mrcal
            import numpy as np
            fs = cv2.FileStorage(sys.argv[1] + "/calibration.yaml", cv2.FILE_STORAGE_READ)
            K, D = fs.getNode("camera_matrix").mat(), fs.getNode("distortion_coefficients").mat()
            m = mrcal.cameramodel(sys.argv[1] + "/calibration.cameramodel")
            rng = np.random.default_rng(3)
            pixels = np.column_stack([rng.uniform(0, 639, 300), rng.uniform(0, 479, 300)])
            rays = cv2.undistortPoints(pixels.reshape(-1, 1, 2), K, D).reshape(-1, 2)
            points = np.column_stack([rays, np.ones(len(rays))])
            q, _ = cv2.projectPoints(points, np.zeros(3), np.zeros(3), K, D)
            qm = mrcal.project(points, *m.intrinsics())
            print(json.dumps({"px": float(np.abs(q.reshape(-1, 2) - qm).max()), "lensmodel": m.intrinsics()[0],
                              "size": m.imagersize().tolist(), "extrinsics": m.extrinsics_rt_fromref().tolist()}))
            """, [out])
        let read = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let px = try #require(read["px"] as? Double)
        print("\(model): calibration.cameramodel projects \(px) px from calibration.yaml")
        #expect(px < 0.01)
        #expect(read["lensmodel"] as? String == MrcalCameraModel.lensModel(of: model))
        #expect(read["size"] as? [Int] == [640, 480])
        #expect(read["extrinsics"] as? [Double] == [0, 0, 0, 0, 0, 0])
    }
}
