# Makes the fixtures of this folder from the shared ChArUco photo (python3 with Pillow):
#   python3 make.py ../../../../shared/images .
# board-rgb.jpg   the photo as an ordinary (YCbCr) JPEG, quality 90
# board-cmyk.jpg  the same as CMYK, as Pillow writes it: Adobe marker, inks stored inverted
# crop-cmyk.jpg   a 64x48 part of it as CMYK, small enough to compare pixel by pixel
# Then, with the other two tools here (cc ycck.c -ljpeg; c++ ref.cpp $(pkg-config --cflags --libs opencv4)):
#   ./ycck board-cmyk.jpg board-ycck.jpg 90; ./ycck crop-cmyk.jpg crop-ycck.jpg 90   (the same inks as YCCK)
#   ./ref crop-cmyk.jpg crop-cmyk.imdecode.png crop-cmyk.imdecode-gray.png, and likewise for crop-ycck
#   (what OpenCV's imread gives for them, in colour and in gray)
import sys
from PIL import Image
shared, out = sys.argv[1], sys.argv[2]
board = Image.open(shared + "/charuco/board.jpg").convert("RGB")
board.save(out + "/board-rgb.jpg", quality=90)
board.convert("CMYK").save(out + "/board-cmyk.jpg", quality=90)
board.crop((200, 150, 264, 198)).convert("CMYK").save(out + "/crop-cmyk.jpg", quality=90)
