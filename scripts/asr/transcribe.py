#!/usr/bin/env python3
"""Speech recognition for clipmatrix's subtitles: faster-whisper on the CPU, offline.

    transcribe.py FILE --lang zh|en --model MODEL_DIR [--beam N] [--threads N]

Prints one JSON document on stdout:
    {"language": "zh", "duration": 12.3, "segments": [{"start": 0.0, "end": 2.5, "text": "..."}]}
Errors go to stderr with a non-zero exit: 2 bad arguments or model, 3 no audio track, 1 anything else.

The Rust worker (crates/media/src/asr.rs) embeds this file and writes it to <data dir>/asr/transcribe.py,
so the copy in the repository is the one to edit.
"""

import argparse
import json
import os
import sys
import time

# Never reach for a model hub: the model is a local directory and the machine may have no network.
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["HF_HUB_DISABLE_TELEMETRY"] = "1"
os.environ["TQDM_DISABLE"] = "1"



def simplified():
    """Whisper writes Chinese in traditional characters about as often as in simplified. (The usual
    trick, a simplified-Chinese initial_prompt, makes the base model recite the prompt as subtitles.)
    OpenCC's t2s table converts afterwards; without OpenCC the text is left as Whisper wrote it."""
    try:
        import opencc

        return opencc.OpenCC("t2s").convert
    except Exception as e:  # an older venv: still usable
        print(f"transcribe: warning: no traditional-to-simplified conversion ({e})", file=sys.stderr)
        return lambda t: t


def fail(code, msg):
    print(f"transcribe: {msg}", file=sys.stderr)
    sys.exit(code)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("file")
    p.add_argument("--lang", required=True, choices=["zh", "en"])
    p.add_argument("--model", required=True, help="a CTranslate2 Whisper model directory")
    p.add_argument("--beam", type=int, default=5, help="beam size (Whisper's default; 1 is greedy)")
    p.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    a = p.parse_args()

    if not os.path.isfile(a.file):
        fail(2, f"no such file: {a.file}")
    if not os.path.isfile(os.path.join(a.model, "model.bin")):
        fail(2, f"no model.bin in {a.model}")

    # A video without sound is a clear error, not "no speech".
    try:
        import av

        with av.open(a.file) as c:
            if not c.streams.audio:
                fail(3, "the file has no audio track")
    except av.error.FFmpegError as e:
        fail(1, f"cannot read {a.file}: {e}")

    from faster_whisper import WhisperModel

    t0 = time.monotonic()
    try:
        model = WhisperModel(a.model, device="cpu", compute_type="int8", cpu_threads=a.threads)
    except Exception as e:  # a broken or partial model directory
        fail(2, f"cannot load the model in {a.model}: {e}")
    t1 = time.monotonic()
    segments, info = model.transcribe(
        a.file,
        language=a.lang,
        task="transcribe",
        beam_size=a.beam,
        # Drops long silences and music-only stretches, where Whisper otherwise invents text.
        vad_filter=True,
        # Stops a misheard line from being repeated over and over.
        condition_on_previous_text=False,
    )
    convert = simplified() if a.lang == "zh" else (lambda t: t)
    out = []
    for s in segments:  # a generator: the work happens here
        text = convert(s.text.strip())
        # On a short clip a looping decoder can stamp lines past the end of the audio: drop them.
        if not text or s.start >= info.duration:
            continue
        end = min(max(s.end, s.start), info.duration)
        out.append({"start": round(s.start, 3), "end": round(end, 3), "text": text})
    t2 = time.monotonic()
    print(
        f"transcribe: {info.duration:.1f} s of audio, model loaded in {t1 - t0:.1f} s, "
        f"recognized in {t2 - t1:.1f} s",
        file=sys.stderr,
    )
    json.dump(
        {"language": info.language, "duration": round(info.duration, 3), "segments": out},
        sys.stdout,
        ensure_ascii=True,  # plain ASCII whatever the locale's encoding
    )
    sys.stdout.write("\n")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        fail(130, "interrupted")
    except SystemExit:
        raise
    except Exception as e:
        fail(1, f"{type(e).__name__}: {e}")
