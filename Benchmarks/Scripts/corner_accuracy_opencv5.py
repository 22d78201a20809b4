"""OpenCV 5's ChArUco detection over every view of a corner_accuracy.py folder, one JSON line per
view in the format of that script's `opencv` command (OpenCV 5 reports corners with the centre of
the top-left pixel at (0, 0): score them without --shift). Run it with a Python that has OpenCV 5,
e.g. a venv with `pip install opencv-python-headless==5.0.0.93`:

  corner_accuracy_opencv5.py FOLDER OUT.jsonl [--no-refine]

CharucoDetector.detectBoard with default parameters; markers missed at first are recovered from
the board's layout (CharucoParameters.tryRefineMarkers) unless --no-refine is given.
"""
import json, os, sys, cv2
BOARDS = {"charuco:5x7:DICT_6X6_250": (5, 7, cv2.aruco.DICT_6X6_250, 0.04, 0.02),
          "charuco:8x8:DICT_4X4_1000:square=1,marker=0.75": (8, 8, cv2.aruco.DICT_4X4_1000, 1.0, 0.75),
          "charuco:11x8:DICT_5X5_100:square=0.03,marker=0.021": (11, 8, cv2.aruco.DICT_5X5_100, 0.03, 0.021),
          "charuco:7x5:DICT_4X4_50:square=0.04,marker=0.032": (7, 5, cv2.aruco.DICT_4X4_50, 0.04, 0.032)}
folder, out_path = sys.argv[1:3]
refine = "--no-refine" not in sys.argv[3:]
detectors = {}
for p, (c, r, d, s, m) in BOARDS.items():
    board = cv2.aruco.CharucoBoard((c, r), s, m, cv2.aruco.getPredefinedDictionary(d))
    cp = cv2.aruco.CharucoParameters(); cp.tryRefineMarkers = refine
    detectors[p] = cv2.aruco.CharucoDetector(board, cp)
with open(out_path, "w") as out:
    for record in json.load(open(os.path.join(folder, "truth.json")))["frames"]:
        gray = cv2.imread(os.path.join(folder, record["folder"], record["file"]), cv2.IMREAD_GRAYSCALE)
        corners, ids, _, _ = detectors[record["pattern"]].detectBoard(gray)
        found = [] if ids is None else [{"id": int(i), "xy": [float(p[0]), float(p[1])]} for i, p in zip(ids.reshape(-1), corners.reshape(-1, 2))]
        out.write(json.dumps({"folder": record["folder"], "file": record["file"], "corners": found}) + "\n")
