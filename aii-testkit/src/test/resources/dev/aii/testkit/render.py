# Renders the bytes on stdin as an 80x24 terminal (pyte, a VT emulator) shows them: the screen's lines,
# trailing blanks dropped, then a last line "cursor <row> <column>" (0-based).
import sys

import pyte

screen = pyte.Screen(80, 24)
pyte.ByteStream(screen).feed(sys.stdin.buffer.read())
for line in screen.display:
    print(line.rstrip())
print("cursor", screen.cursor.y, screen.cursor.x)
