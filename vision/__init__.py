"""Camera side: frame sources, table rectification, card and sticker readers, debouncing.

Depends on companion/ (observation types), never on ui/ or kivy (DESIGN.md §2).
"""

import os

# One BLAS thread: the readers multiply small matrices (a card region's 25 shifted windows by
# a deck's 480 looks), where OpenBLAS's threads cost ten times what they save and take the
# cores the camera and the screen need. Only effective before numpy is first imported; the
# Makefile and the kiosk unit set it for every process too.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

# An image file whose header claims a huge picture (100000 x 100000) is refused by OpenCV's
# decoders rather than given gigabytes: 60 megapixels is more than any phone photo. Only
# effective before OpenCV first decodes.
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(60_000_000))

# A damaged file is said once, in the project's words ("cannot be opened as an image"), not
# also in a decoder's warning on the terminal. Only effective before OpenCV is first imported.
os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")
