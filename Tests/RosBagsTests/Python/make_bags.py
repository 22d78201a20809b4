"""Writes the recordings the RosBags tests read, with well-kept writers rather than the reader's own code.

ROS 1 bags and rosbag2 folders (sqlite3 or mcap storage) with the `rosbags` package, standalone MCAP files
with Foxglove's `mcap` package (it writes lz4 and zstd chunks, with CRCs); messages serialized by rosbags'
type store (ROS 1 for a ROS 1 bag or a ros1 MCAP, CDR otherwise). Next to each recording, optionally, a folder
of the same frames as image files with a manifest.jsonl of their stamps: what `process` of the folder must
agree with.

    python3 make_bags.py SPEC.json

SPEC: {"output": PATH, "container": "ros1" | "rosbag2-sqlite3" | "rosbag2-mcap" | "mcap",
       "compression": "none" | "bz2" | "lz4" | "zstd" | "message-zstd", "mcap_encoding": "cdr" | "ros1",
       "chunk_size": BYTES, "manifest_origin_ns": INT,
       "topics": [{"name": TOPIC, "encoding": "mono8" | "bgr8" | "rgb8" | "bayer_rggb8" | ... | "jpeg" | "png",
                   "row_padding": BYTES, "folder": PATH,
                   "frames": [{"image": PATH, "stamp_ns": INT, "receive_ns": INT}]}],
       "other_topics": [{"name": TOPIC, "stamps_ns": [INT, ...]}]}     # sensor_msgs/Imu messages
"""

import json
import os
import sys

import cv2
import numpy as np
from rosbags.typesys import Stores, get_typestore

BAYER_CODES = {  # ROS's name -> OpenCV's code (cv_bridge's mapping), and the offsets of R and B
    "bayer_rggb8": (cv2.COLOR_BayerBG2BGR, (0, 0), (1, 1)),
    "bayer_bggr8": (cv2.COLOR_BayerRG2BGR, (1, 1), (0, 0)),
    "bayer_gbrg8": (cv2.COLOR_BayerGR2BGR, (1, 0), (0, 1)),
    "bayer_grbg8": (cv2.COLOR_BayerGB2BGR, (0, 1), (1, 0)),
}


def mosaic(bgr, encoding):
    """The Bayer mosaic a camera of that layout would record of `bgr`."""
    _, (ry, rx), (by, bx) = BAYER_CODES[encoding]
    out = bgr[:, :, 1].copy()
    out[ry::2, rx::2] = bgr[ry::2, rx::2, 2]
    out[by::2, bx::2] = bgr[by::2, bx::2, 0]
    return out


def frame_payload(image_path, encoding, padding):
    """(message fields, folder file bytes, file extension) of one frame."""
    raw = open(image_path, "rb").read()
    bgr = cv2.imdecode(np.frombuffer(raw, np.uint8), cv2.IMREAD_COLOR)
    if encoding == "jpeg":
        if raw[:2] != b"\xff\xd8":
            raw = cv2.imencode(".jpg", bgr)[1].tobytes()
        return {"format": "jpeg", "data": raw}, raw, "jpg"
    if encoding == "png":
        data = cv2.imencode(".png", bgr)[1].tobytes()
        return {"format": "png", "data": data}, data, "png"
    if encoding in ("mono8", "8UC1"):
        pixels, shown = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), None
    elif encoding in ("bgr8", "8UC3"):
        pixels, shown = bgr, None
    elif encoding == "rgb8":
        pixels, shown = np.ascontiguousarray(bgr[:, :, ::-1]), bgr
    elif encoding in BAYER_CODES:
        pixels = mosaic(bgr, encoding)
        shown = cv2.cvtColor(pixels, BAYER_CODES[encoding][0])
    else:
        raise SystemExit(f"unknown encoding {encoding}")
    height, width = pixels.shape[:2]
    rows = pixels.reshape(height, -1)
    step = rows.shape[1] + padding
    padded = np.zeros((height, step), np.uint8)
    padded[:, : rows.shape[1]] = rows
    fields = {"height": height, "width": width, "encoding": encoding, "step": step, "data": padded.reshape(-1)}
    return fields, cv2.imencode(".png", pixels if shown is None else shown)[1].tobytes(), "png"


def header(store, stamp_ns, frame_id):
    """A std_msgs/Header (ROS 1's has a seq)."""
    Time = store.types["builtin_interfaces/msg/Time"]
    Header = store.types["std_msgs/msg/Header"]
    extra = {"seq": 0} if "seq" in Header.__dataclass_fields__ else {}
    return Header(stamp=Time(sec=stamp_ns // 1_000_000_000, nanosec=stamp_ns % 1_000_000_000), frame_id=frame_id, **extra)


def message(store, kind, stamp_ns, fields):
    header_ = header(store, stamp_ns, "camera")
    if kind == "compressed":
        CompressedImage = store.types["sensor_msgs/msg/CompressedImage"]
        return CompressedImage(header=header_, format=fields["format"], data=np.frombuffer(fields["data"], np.uint8))
    Image = store.types["sensor_msgs/msg/Image"]
    return Image(header=header_, height=fields["height"], width=fields["width"], encoding=fields["encoding"],
                 is_bigendian=0, step=fields["step"], data=fields["data"])


def imu(store, stamp_ns):
    names = store.types
    Quaternion, Vector3 = names["geometry_msgs/msg/Quaternion"], names["geometry_msgs/msg/Vector3"]
    zero = np.zeros(9, np.float64)
    return names["sensor_msgs/msg/Imu"](
        header=header(store, stamp_ns, "imu"),
        orientation=Quaternion(x=0.0, y=0.0, z=0.0, w=1.0), orientation_covariance=zero,
        angular_velocity=Vector3(x=0.0, y=0.0, z=0.0), angular_velocity_covariance=zero,
        linear_acceleration=Vector3(x=0.0, y=0.0, z=9.81), linear_acceleration_covariance=zero)


def write_all(writer, messages, store):
    """Writes every message with a rosbags writer (ROS 1 or rosbag2), a connection a topic."""
    with writer:
        connections = {}
        for receive, topic, typename, data in messages:
            if topic not in connections:
                connections[topic] = writer.add_connection(topic, typename, typestore=store)
            writer.write(connections[topic], receive, data)


def main():
    spec = json.load(open(sys.argv[1]))
    container = spec["container"]
    compression = spec.get("compression", "none")
    ros1 = container == "ros1" or (container == "mcap" and spec.get("mcap_encoding") == "ros1")
    store = get_typestore(Stores.ROS1_NOETIC if ros1 else Stores.ROS2_HUMBLE)
    serialize = store.serialize_ros1 if ros1 else store.serialize_cdr

    # Every message, in the order of its receive time: (receive_ns, topic, type, bytes).
    messages = []
    for topic in spec["topics"]:
        kind = "compressed" if topic["encoding"] in ("jpeg", "png") else "raw"
        typename = "sensor_msgs/msg/CompressedImage" if kind == "compressed" else "sensor_msgs/msg/Image"
        folder = topic.get("folder")
        manifest = []
        if folder:
            os.makedirs(folder, exist_ok=True)
        for frame in topic["frames"]:
            fields, file_bytes, extension = frame_payload(frame["image"], topic["encoding"], topic.get("row_padding", 0))
            stamp = frame["stamp_ns"]
            data = bytes(serialize(message(store, kind, stamp, fields), typename))
            messages.append((frame.get("receive_ns", stamp), topic["name"], typename, data))
            if folder:
                name = f"{stamp}.{extension}"
                open(os.path.join(folder, name), "wb").write(file_bytes)
                # A manifest's times are at most 1e9 s: seconds after the spec's origin.
                manifest.append(json.dumps({"file": name, "t": (stamp - spec.get("manifest_origin_ns", 0)) / 1e9}))
        if folder:
            open(os.path.join(folder, "manifest.jsonl"), "w").write("\n".join(manifest) + "\n")
    for topic in spec.get("other_topics", []):
        for stamp in topic["stamps_ns"]:
            messages.append((stamp, topic["name"], "sensor_msgs/msg/Imu", bytes(serialize(imu(store, stamp), "sensor_msgs/msg/Imu"))))
    messages.sort(key=lambda item: item[0])
    output = spec["output"]

    if container == "ros1":
        from rosbags.rosbag1 import Writer

        writer = Writer(output)
        if compression != "none":
            writer.set_compression({"bz2": Writer.CompressionFormat.BZ2, "lz4": Writer.CompressionFormat.LZ4}[compression])
        if "chunk_size" in spec:
            writer.chunk_threshold = spec["chunk_size"]
        write_all(writer, messages, store)
    elif container.startswith("rosbag2"):
        from rosbags.rosbag2 import Writer
        from rosbags.rosbag2.enums import CompressionFormat, CompressionMode, StoragePlugin

        plugin = StoragePlugin.MCAP if container == "rosbag2-mcap" else StoragePlugin.SQLITE3
        writer = Writer(output, version=9, storage_plugin=plugin)
        if compression == "message-zstd":
            writer.set_compression(CompressionMode.MESSAGE, CompressionFormat.ZSTD)
        elif compression == "zstd":
            writer.set_compression(CompressionMode.STORAGE, CompressionFormat.ZSTD)
        write_all(writer, messages, store)
    elif container == "mcap":
        from mcap.writer import CompressionType, Writer

        chosen = {"none": CompressionType.NONE, "lz4": CompressionType.LZ4, "zstd": CompressionType.ZSTD}[compression]
        with open(output, "wb") as stream:
            writer = Writer(stream, compression=chosen, chunk_size=spec.get("chunk_size", 1 << 20))
            writer.start(profile="ros1" if ros1 else "ros2", library="make_bags.py")
            channels = {}
            for receive, topic, typename, data in messages:
                if topic not in channels:
                    definition, _ = store.generate_msgdef(typename, ros_version=1 if ros1 else 2)
                    name = typename.replace("/msg/", "/") if ros1 else typename
                    schema = writer.register_schema(name=name, encoding="ros1msg" if ros1 else "ros2msg", data=definition.encode())
                    channels[topic] = writer.register_channel(topic=topic, message_encoding="ros1" if ros1 else "cdr", schema_id=schema)
                writer.add_message(channels[topic], log_time=receive, data=data, publish_time=receive)
            writer.finish()
    else:
        raise SystemExit(f"unknown container {container}")


if __name__ == "__main__":
    main()
