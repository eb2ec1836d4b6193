"""Kokoro-82M speech synthesis for clipmatrix, one long-lived process per server.

    python synth.py --engine DIR          DIR holds model.onnx, vocab.json and voices/*.bin

Reads one JSON request per line on stdin and answers one JSON line on stdout:
    {"out": "/path.wav", "voice": "zf_xiaoxiao", "speed": 1.0,
     "sentences": [[{"lang": "zh", "text": "..."}, {"lang": "en", "text": "..."}], ...]}
 -> {"ok": true, "sample_rate": 24000, "sentences": [{"start": 0, "end": 31200}, ...]}   (samples)
 or {"ok": false, "error": "..."}
The text arrives normalised (numbers spelled out, Latin runs marked "en") by the Rust side; this script
only turns words into phonemes (misaki's Chinese G2P, espeak-ng for English) and phonemes into sound.
The first line it prints is {"ready": true} once the model is loaded.
Writing a file, it prints {"done": i, "of": n} after each sentence, before the answer, so a voice task's
progress moves while a long script is spoken.
With "stream": true (an audition) the sentences are spoken clause by clause and each clause's sound is
printed as soon as it exists, before the answer: {"pcm": "<base64 s16le 24 kHz mono>"} (no file is
written), so the listener hears the first words after one clause's compute, not the whole sentence's.
"""
import base64
import argparse
import json
import os
import re
import subprocess
import sys
import wave

import numpy as np

SAMPLE_RATE = 24000
MAX_TOKENS = 500  # the model takes 510 with the two pads; leave room
PAUSE = {"sentence": 0.30, "clause": 0.0}
MIN_CLAUSE = 12  # phoneme characters: a streamed clause shorter than this waits for the next one

# espeak-ng's IPA -> the phoneme set Kokoro was trained on (misaki's EspeakFallback table, US English).
E2M = sorted({
    'ʔˌn\u0329': 'ʔn', 'ʔn\u0329': 'ʔn', 'a^ɪ': 'I', 'a^ʊ': 'W', 'd^ʒ': 'ʤ', 'e^ɪ': 'A', 'e': 'A',
    't^ʃ': 'ʧ', 'ɔ^ɪ': 'Y', 'ə^l': 'ᵊl', 'ʲo': 'jo', 'ʲə': 'jə', 'ʲ': '', 'ɚ': 'əɹ', 'r': 'ɹ',
    'x': 'k', 'ç': 'k', 'ɐ': 'ə', 'ɬ': 'l', '\u0303': '',
}.items(), key=lambda kv: -len(kv[0]))


def en_phonemes(text):
    """English words -> Kokoro phonemes through espeak-ng (one call per clause, punctuation kept)."""
    out = []
    for piece, punct in re.findall(r"([^,;:.!?]*)([,;:.!?]*)", text):
        piece = piece.strip()
        if piece:
            ipa = subprocess.run(
                ["espeak-ng", "-q", "-v", "en-us", "--ipa", "--tie=^", piece],
                check=True, capture_output=True, text=True,
            ).stdout
            ps = " ".join(ipa.split())
            for old, new in E2M:
                ps = ps.replace(old, new)
            ps = re.sub(r"(\S)\u0329", r"ᵊ\1", ps).replace(chr(809), "")
            ps = ps.replace("o^ʊ", "O").replace("ɜːɹ", "ɜɹ").replace("ɜː", "ɜɹ").replace("ɪə", "iə")
            ps = ps.replace("ː", "").replace("o", "ɔ").replace("ɾ", "T").replace("ʔ", "t").replace("^", "")
            out.append(ps)
        if punct:
            if out:
                out[-1] += punct[0]
    return " ".join(out)


class Engine:
    def __init__(self, folder, threads):
        import onnxruntime as ort
        from misaki import zh

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        self.session = ort.InferenceSession(
            os.path.join(folder, "model.onnx"), sess_options=opts, providers=["CPUExecutionProvider"]
        )
        with open(os.path.join(folder, "vocab.json"), encoding="utf-8") as f:
            self.vocab = json.load(f)["vocab"]
        self.voices_dir = os.path.join(folder, "voices")
        self.voices = {}
        self.zh = zh.ZHG2P()
        self.zh("预热")  # jieba loads its dictionary on first use

    def voice(self, name):
        if name not in self.voices:
            if not re.fullmatch(r"[a-z]{2}_[a-z]+", name):
                raise ValueError(f"bad voice name {name!r}")
            path = os.path.join(self.voices_dir, name + ".bin")
            if not os.path.isfile(path):
                raise ValueError(f"no such voice {name!r}")
            self.voices[name] = np.fromfile(path, dtype=np.float32).reshape(-1, 256)
        return self.voices[name]

    def phonemes(self, parts):
        out = []
        for p in parts:
            text = p["text"].strip()
            if not text:
                continue
            if p["lang"] == "en":
                out.append(en_phonemes(text))
            else:
                out.append(self.zh(text)[0])
        return " ".join(x for x in out if x).strip()

    def infer(self, ps, style, speed):
        tokens = [self.vocab[c] for c in ps if c in self.vocab][:MAX_TOKENS]
        if not tokens:
            return np.zeros(0, np.float32)
        ref = style[min(len(tokens), len(style) - 1)]
        audio = self.session.run(None, {
            "tokens": np.array([[0, *tokens, 0]], dtype=np.int64),
            "style": np.asarray(ref, dtype=np.float32).reshape(1, 256),
            "speed": np.array([speed], dtype=np.float32),
        })[0]
        return trim(np.asarray(audio, np.float32).ravel())

    def chunks(self, ps):
        """A sentence's phonemes in pieces the model takes, cut at clause punctuation."""
        if len(ps) <= MAX_TOKENS:
            return [ps]
        out, cur = [], ""
        for piece in re.split(r"(?<=[,.!?;:])\s*", ps):
            if cur and len(cur) + len(piece) + 1 > MAX_TOKENS:
                out.append(cur)
                cur = piece
            else:
                cur = f"{cur} {piece}".strip()
        if cur:
            out.append(cur)
        return [c[:MAX_TOKENS] for c in out]

    def clauses(self, ps):
        """A sentence's phonemes cut at clause punctuation, short pieces joined to the next (a clause
        of two syllables sounds clipped on its own)."""
        out, cur = [], ""
        for piece in re.split(r"(?<=[,;:])\s*", ps):
            cur = f"{cur} {piece}".strip()
            if len(cur) >= MIN_CLAUSE:
                out.append(cur)
                cur = ""
        if cur:
            if out:
                out[-1] = f"{out[-1]} {cur}"
            else:
                out.append(cur)
        return [c for piece in out for c in self.chunks(piece)]

    def stream(self, req):
        style = self.voice(req["voice"])
        speed = float(req.get("speed", 1.0))
        gap = np.zeros(int(PAUSE["sentence"] * SAMPLE_RATE), np.int16)
        spans, pos = [], 0
        for i, parts in enumerate(req["sentences"]):
            start = pos
            for j, c in enumerate(self.clauses(self.phonemes(parts))):
                audio = self.infer(c, style, speed)
                pcm = (np.clip(audio, -1, 1) * 32767).astype(np.int16)
                if i > 0 and j == 0:
                    pcm = np.concatenate([gap, pcm])
                    start += len(gap)
                emit({"pcm": base64.b64encode(pcm.tobytes()).decode()})
                pos += len(pcm)
            spans.append({"start": start, "end": pos})
        return {"ok": True, "sample_rate": SAMPLE_RATE, "sentences": spans}

    def run(self, req):
        if req.get("stream"):
            return self.stream(req)
        style = self.voice(req["voice"])
        speed = float(req.get("speed", 1.0))
        gap = np.zeros(int(PAUSE["sentence"] * SAMPLE_RATE), np.float32)
        pieces, spans, pos = [], [], 0
        for i, parts in enumerate(req["sentences"]):
            if i > 0:
                pieces.append(gap)
                pos += len(gap)
            audio = [self.infer(c, style, speed) for c in self.chunks(self.phonemes(parts))]
            audio = np.concatenate(audio) if audio else np.zeros(0, np.float32)
            pieces.append(audio)
            spans.append({"start": pos, "end": pos + len(audio)})
            pos += len(audio)
            emit({"done": i + 1, "of": len(req["sentences"])})
        audio = np.concatenate(pieces) if pieces else np.zeros(0, np.float32)
        pcm = (np.clip(audio, -1, 1) * 32767).astype(np.int16)
        tmp = req["out"] + ".part"
        with wave.open(tmp, "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(SAMPLE_RATE)
            w.writeframes(pcm.tobytes())
        os.replace(tmp, req["out"])
        return {"ok": True, "sample_rate": SAMPLE_RATE, "sentences": spans}


def trim(audio, thresh=0.01, pad=int(0.05 * SAMPLE_RATE)):
    idx = np.where(np.abs(audio) > thresh)[0]
    if len(idx) == 0:
        return audio
    return audio[max(0, idx[0] - pad): idx[-1] + pad]


def emit(obj):
    print(json.dumps(obj, ensure_ascii=False), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", required=True)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    engine = Engine(args.engine, args.threads)
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            answer = engine.run(json.loads(line))
        except Exception as e:  # one bad request must not end the process
            answer = {"ok": False, "error": f"{type(e).__name__}: {e}"}
        emit(answer)


if __name__ == "__main__":
    main()
