#!/bin/sh
# Regenerate wqy-microhei-subset.ttf from WenQuanYi Micro Hei (Debian: fonts-wqy-microhei;
# pip install fonttools). Run from anywhere: sh assets/fonts/subset.sh
#
# The subset holds what the renderer draws: the piece glyphs in both scripts, 楚河漢界汉界, the
# Chinese numerals, Latin and Vietnamese letters and a few symbols, and, for players' names,
# the common Hanzi: GB2312 level 1 (the 3,755 most used simplified characters) and Big5 level 1
# (the 5,401 most used traditional ones), 6,722 characters in all.
set -eu
here=$(dirname "$0")
text=$(mktemp)
trap 'rm -f "$text"' EXIT
python3 - "$text" <<'PY'
import sys
chars = set('帥仕相俥傌炮兵將士象車馬砲卒帅仕相车马炮兵将士象车马炮卒楚河漢界汉界一二三四五六七八九十')
for hi in range(0xB0, 0xD8):          # GB2312 level 1: rows 16-55
    for lo in range(0xA1, 0xFF):
        try:
            chars.add(bytes([hi, lo]).decode('gb2312'))
        except UnicodeDecodeError:
            pass
for hi in range(0xA4, 0xC7):          # Big5 level 1: A440-C67E
    for lo in list(range(0x40, 0x7F)) + list(range(0xA1, 0xFF)):
        if (hi, lo) > (0xC6, 0x7E):
            break
        try:
            chars.add(bytes([hi, lo]).decode('big5'))
        except UnicodeDecodeError:
            pass
open(sys.argv[1], 'w', encoding='utf-8').write(''.join(sorted(chars)))
PY
pyftsubset /usr/share/fonts/truetype/wqy/wqy-microhei.ttc --font-number=0 \
  --text-file="$text" \
  --unicodes='U+0020-007E,U+00A0-017F,U+01A0-01B0,U+0300-0309,U+0323,U+1EA0-1EF9,U+2013-2014,U+2018-201D,U+2022,U+2026,U+25A1,U+25B6,U+25CB,U+25CF,U+FFFD' \
  --no-hinting --layout-features='' --drop-tables+=FFTM,GDEF,GPOS,GSUB --name-IDs='*' \
  --output-file="$here/wqy-microhei-subset.ttf"
