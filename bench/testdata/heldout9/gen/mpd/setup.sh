#!/bin/bash
# A fresh state and a generated music tree: short WAV tones under
# artist/album folders, a text file and an unreadable file (no file that
# would reach FFmpeg's probe, whose messages come from FFmpeg's source).
D=/work/tmp-ho9/mpd; rm -rf $D; mkdir -p $D/music $D/playlists $D/log; cd $D
python3 - <<'PY'
import math, os, random, struct, wave
r = random.Random(9)
for a in ["Ada Lovelace Trio", "The Byte Order", "Carol & Dave", "Nullpointer"]:
    for al in ["First Light", "Second Wind", "Live at Loopback"][: r.randint(1, 3)]:
        d = os.path.join("music", a, al); os.makedirs(d, exist_ok=True)
        for n in range(1, r.randint(3, 6)):
            f, rate, secs = r.choice([220, 330, 440, 550]), r.choice([8000, 11025, 22050]), r.uniform(1.5, 4)
            with wave.open(os.path.join(d, "%02d - Track %d.wav" % (n, n)), "wb") as w:
                w.setnchannels(r.choice([1, 2])); w.setsampwidth(2); w.setframerate(rate)
                fr = w.getnchannels()
                w.writeframes(b"".join(struct.pack("<h", int(8000 * math.sin(2 * math.pi * f * i / rate))) * fr for i in range(int(rate * secs))))
os.makedirs("music/misc", exist_ok=True)
open("music/misc/readme.txt", "w").write("not music\n")
PY
touch music/misc/locked.wav; chmod 000 music/misc/locked.wav
chown -R mpd:audio $D; chmod 000 music/misc/locked.wav
