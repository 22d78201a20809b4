# The wide-lens trials of WideLensRationalTests solved by Python's cv2.calibrateCamera (rational
# model) and by mrcal 2.2 (LENSMODEL_OPENCV8 with its regularisation and outlier rejection), each
# scored as the test scores ours: the worst error at the image's corners and edges' midpoints after
# the small rotation that fits best over the corners' window. Run from the package root:
#   MARKER_SHUTTER_FULL_TRIALS=1 MARKER_SHUTTER_WIDE_LENS_VIEWS=/tmp/wide-trials.json \
#       swift test --filter WideLensRationalTests
#   /usr/bin/python3 Benchmarks/Scripts/wide_lens_peers.py /tmp/wide-trials.json
import json, sys
import numpy as np, cv2, mrcal
from scipy.optimize import least_squares

W, H = 1500, 1000
truth = np.array([2073.872915/4*1.4, 2077.452267/4*1.4, 3004.686823/4, 1997.377253/4,
                  0.4791613797, 0.0266824914, 4.398264387e-05, -1.180073913e-05, 8.959722542e-05,
                  0.7666912469, 0.09633561231, 0.001407513313])
model = 'LENSMODEL_OPENCV8'
w, h = W - 1, H - 1
margin = 0.15
fit = np.array([[(margin + 0.7 * c / 10) * w, (margin + 0.7 * r / 10) * h] for r in range(11) for c in range(11)])
probes = np.array([(0, 0), (w, 0), (0, h), (w, h), (w / 2, 0), (w / 2, h), (0, h / 2), (w, h / 2)], float)
fit_rays = mrcal.unproject(fit, model, truth)
probe_rays = mrcal.unproject(probes, model, truth)
assert np.allclose(mrcal.project(probe_rays, model, truth), probes, atol=1e-6)

def probe_errors(k):
    def residual(rw, rays, px):
        R = cv2.Rodrigues(rw)[0]
        return (mrcal.project(rays @ R.T, model, k) - px).ravel()
    rw = least_squares(residual, np.zeros(3), args=(fit_rays, fit)).x
    e = (mrcal.project(probe_rays @ cv2.Rodrigues(rw)[0].T, model, k) - probes).reshape(-1, 2)
    return np.hypot(e[:, 0], e[:, 1])

trials = json.load(open(sys.argv[1] if len(sys.argv) > 1 else '/tmp/wide-trials.json'))
cvw, mrw = [], []
for index, views in enumerate(trials):
    objects = [np.array(v['object'], np.float32).reshape(-1, 3) for v in views]
    images = [np.array(v['image'], np.float32).reshape(-1, 1, 2) for v in views]
    rms, K, D, rvecs, tvecs = cv2.calibrateCamera(objects, images, (W, H), None, None, flags=cv2.CALIB_RATIONAL_MODEL)
    kcv = np.array([K[0, 0], K[1, 1], K[0, 2], K[1, 2]] + list(D.ravel()[:8]))
    # mrcal: a 12 x 9 grid, corners outside the window weighted -1 (absent).
    spacing = 1 / 11
    obs = np.zeros((len(views), 9, 12, 3))
    obs[..., 2] = -1
    frames = np.zeros((len(views), 6))
    for i, (o, p) in enumerate(zip(objects, images)):
        cols = np.rint(o[:, 0] / spacing).astype(int); rows = np.rint(o[:, 1] / spacing).astype(int)
        obs[i, rows, cols, :2] = p.reshape(-1, 2)
        obs[i, rows, cols, 2] = 1
        frames[i, :3] = rvecs[i].ravel(); frames[i, 3:] = tvecs[i].ravel()
    intrinsics = kcv.reshape(1, -1).copy()
    indices = np.array([[i, 0, -1] for i in range(len(views))], np.int32)
    inputs = dict(intrinsics=intrinsics, extrinsics_rt_fromref=np.zeros((0, 6)), frames_rt_toref=frames,
                  points=None, observations_board=obs, indices_frame_camintrinsics_camextrinsics=indices,
                  observations_point=None, indices_point_camintrinsics_camextrinsics=None,
                  lensmodel=model, imagersizes=np.array([[W, H]], np.int32), calobject_warp=None,
                  do_optimize_intrinsics_core=True, do_optimize_intrinsics_distortions=True,
                  do_optimize_extrinsics=False, do_optimize_frames=True, do_optimize_calobject_warp=False,
                  calibration_object_spacing=spacing, do_apply_outlier_rejection=True,
                  do_apply_regularization=True, verbose=False)
    stats = mrcal.optimize(**inputs)
    ec, em = probe_errors(kcv).max(), probe_errors(inputs['intrinsics'][0]).max()
    cvw.append(ec); mrw.append(em)
    print(f"trial {index}: cv2 rational {ec:.1f} px, mrcal OPENCV8 {em:.1f} px (rms {stats['rms_reproj_error__pixels']:.3f})", flush=True)
med = lambda v: sorted(v)[len(v) // 2]
print(f"{len(trials)} trials, worst / median: cv2 {max(cvw):.1f} / {med(cvw):.1f} px, mrcal {max(mrw):.1f} / {med(mrw):.1f} px")
