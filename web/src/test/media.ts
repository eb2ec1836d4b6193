/** Test helpers of the material pages: rows, and a progress stream the test writes into. */
import type { MediaEvent, MediaFile } from '@/api/materials/types';

export function mediaFile(id: number, extra: Partial<MediaFile> = {}): MediaFile {
  return {
    id,
    library: 'resource',
    merchant_id: 1,
    kind: 'video',
    group_id: 1,
    classify_id: 0,
    file_type_id: 0,
    name: `clip-${id}.mp4`,
    original_name: `clip-${id}.mp4`,
    mime: 'video/mp4',
    size: 700_000,
    width: 720,
    height: 1280,
    duration_ms: 2000,
    fps: 30,
    video_codec: 'h264',
    audio_codec: 'aac',
    has_audio: 1,
    rotation: 0,
    loudness: null,
    state: 'ready',
    error: '',
    progress: 100,
    asr_state: '',
    asr_error: '',
    created_at: 1_700_000_000_000,
    updated_at: 1_700_000_000_000,
    src: `/files/${id}/original?e=1&s=x`,
    poster: `/files/${id}/poster?e=1&s=x`,
    strip: null,
    mezzanine: `/files/${id}/mezzanine?e=1&s=x`,
    fileName: `clip-${id}.mp4`,
    ...extra,
  };
}

/** A `GET /api/events` answer that stays open; `send` pushes a `media` event, `raw` any text. */
export function eventStream() {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const enc = new TextEncoder();
  const pending: string[] = [];
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
      for (const p of pending.splice(0)) c.enqueue(enc.encode(p));
    },
  });
  /** Pushes text as it is (any event). */
  const raw = (text: string) => {
    if (controller) controller.enqueue(enc.encode(text));
    else pending.push(text);
  };
  return {
    response: () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    send(rows: Array<Partial<MediaEvent> & { id: number }>) {
      raw(`event: media\ndata: ${JSON.stringify(rows.map((r) => ({ state: 'processing', progress: 0, error: '', asr_state: '', updated_at: Date.now() + 1_000_000, ...r })))}\n\n`);
    },
    raw,
    close: () => controller?.close(),
  };
}
