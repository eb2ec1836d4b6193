import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveLogin } from '@/store/session';
import type { VariantEvent } from '../clip/types';
import {
  createSseParser,
  parseMediaEvents,
  parseVariantEvents,
  retryDelay,
  subscribeMediaEvents,
  subscribeVariantEvents,
  type SseMessage,
  type StreamStatus,
} from './events';
import type { MediaEvent } from './types';

describe('text/event-stream parser', () => {
  const parse = (...chunks: string[]) => {
    const out: SseMessage[] = [];
    const p = createSseParser((m) => out.push(m));
    for (const c of chunks) p.push(c);
    return out;
  };

  it('reads event and data fields; a blank line ends a message', () => {
    expect(parse('event: media\ndata: [1]\n\n')).toEqual([{ event: 'media', data: '[1]' }]);
    expect(parse('data: plain\n\n')).toEqual([{ event: 'message', data: 'plain' }]);
  });

  it('keeps messages split across chunks anywhere, also inside a line and between \\r and \\n', () => {
    expect(parse('eve', 'nt: me', 'dia\nda', 'ta: [{"id":1}', ']\n', '\n')).toEqual([{ event: 'media', data: '[{"id":1}]' }]);
    expect(parse('event: media\r', '\ndata: x\r\n\r', '', '\n')).toEqual([{ event: 'media', data: 'x' }]);
    expect(parse('data: a\r\rdata: b\r\r')).toEqual([
      { event: 'message', data: 'a' },
      { event: 'message', data: 'b' },
    ]);
  });

  it('skips comments (the keep-alive ticks), joins multi-line data, remembers the id', () => {
    expect(parse(': tick\n\n: keep-alive\nevent: media\ndata: line1\ndata: line2\nid: 7\n\n')).toEqual([{ event: 'media', data: 'line1\nline2', id: '7' }]);
    expect(parse(': tick\n\n')).toEqual([]);
  });

  it('does not dispatch an unfinished message; the event name resets after each message', () => {
    expect(parse('event: media\ndata: [1]\n')).toEqual([]);
    expect(parse('event: media\ndata: 1\n\ndata: 2\n\n').map((m) => m.event)).toEqual(['media', 'message']);
  });

  it('takes the media rows and ignores malformed data', () => {
    expect(parseMediaEvents('[{"id":1,"state":"ready","progress":100,"error":"","asr_state":"","updated_at":5}]')).toHaveLength(1);
    expect(parseMediaEvents('not json')).toEqual([]);
    expect(parseMediaEvents('{"id":1}')).toEqual([]);
    expect(parseMediaEvents('[{"nope":1}]')).toEqual([]);
  });

  it('takes the variant rows and ignores malformed data', () => {
    expect(parseVariantEvents('[{"id":4,"project_id":2,"state":"processing","progress":30,"error":"","duration_ms":0,"updated_at":5}]')).toEqual([
      { id: 4, project_id: 2, state: 'processing', progress: 30, error: '', duration_ms: 0, updated_at: 5 },
    ]);
    expect(parseVariantEvents('nope')).toEqual([]);
    expect(parseVariantEvents('[{"id":"4"}]')).toEqual([]);
  });

  it('backs off 1 s, 2 s, 4 s … up to 15 s between reconnects', () => {
    expect([0, 1, 2, 3, 4, 10].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 15000, 15000]);
  });
});

describe('the progress stream', () => {
  const row = (id: number, state: MediaEvent['state'], progress: number): MediaEvent => ({ id, state, progress, error: '', asr_state: '', updated_at: 1 });

  /** A response body the test writes into. */
  function stream() {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    const enc = new TextEncoder();
    return {
      response: new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
      send: (text: string) => controller.enqueue(enc.encode(text)),
      close: () => controller.close(),
    };
  }

  beforeEach(() => {
    saveLogin({
      token: 'jwt-1',
      expires_at: Date.now() + 3_600_000,
      remember: false,
      user: { id: 1, username: 'demo', nickname: 'Demo', mobile: null, kind: 'merchant', merchant_id: 1, merchant_name: 'Demo', role: [], permissions: ['*/*/*'], proxy_info: {}, home_type: 2, ai_token: '', vip: false, avatar: '' },
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('reads GET /api/events with the bearer header, hands the rows to every listener, reconnects after a drop', async () => {
    const streams = [stream(), stream()];
    const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => streams[fetchMock.mock.calls.length - 1].response);
    vi.stubGlobal('fetch', fetchMock);
    const a: MediaEvent[][] = [];
    const b: MediaEvent[][] = [];
    const statuses: StreamStatus[] = [];
    const offA = subscribeMediaEvents({ onEvents: (r) => a.push(r), onStatus: (s) => statuses.push(s) });
    const offB = subscribeMediaEvents({ onEvents: (r) => b.push(r) });
    await vi.waitFor(() => expect(statuses).toContain('open'));
    expect(fetchMock).toHaveBeenCalledTimes(1); // one connection for both
    const [url, init] = fetchMock.mock.calls[0];
    expect(String(url)).toMatch(/^\/api\/events/);
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer jwt-1');

    streams[0].send(': tick\n\nevent: media\ndata: [{"id":3,"state":"processing","progress":40,"error":"","asr_state":"","updated_at":1}]\n');
    streams[0].send('\n');
    await vi.waitFor(() => expect(a).toEqual([[row(3, 'processing', 40)]]));
    expect(b).toEqual(a);

    // the server goes away: down, then a new connection after a second
    streams[0].close();
    await vi.waitFor(() => expect(statuses.at(-1)).toBe('down'));
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2), { timeout: 3000 });
    await vi.waitFor(() => expect(statuses.at(-1)).toBe('open'));
    streams[1].send('event: media\ndata: [{"id":3,"state":"ready","progress":100,"error":"","asr_state":"","updated_at":1}]\n\n');
    await vi.waitFor(() => expect(a.at(-1)).toEqual([row(3, 'ready', 100)]));

    offA();
    offB();
    // nobody listens: the stream is aborted
    await vi.waitFor(() => expect((fetchMock.mock.calls[1][1].signal as AbortSignal).aborted).toBe(true));
  });

  it('a refused stream counts as down (the pages poll instead)', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('nope', { status: 500 })));
    const statuses: StreamStatus[] = [];
    const off = subscribeMediaEvents({ onStatus: (s) => statuses.push(s) });
    await vi.waitFor(() => expect(statuses.at(-1)).toBe('down'));
    expect(statuses).not.toContain('open');
    off();
  });

  it('hands `variant` events to the variant listeners on the same connection, `media` ones to the media listeners', async () => {
    const s1 = stream();
    const fetchMock = vi.fn(async () => s1.response);
    vi.stubGlobal('fetch', fetchMock);
    const media: MediaEvent[][] = [];
    const variants: VariantEvent[][] = [];
    const statuses: StreamStatus[] = [];
    const offMedia = subscribeMediaEvents({ onEvents: (r) => media.push(r) });
    const offVariants = subscribeVariantEvents({ onVariants: (r) => variants.push(r), onStatus: (st) => statuses.push(st) });
    await vi.waitFor(() => expect(statuses).toContain('open'));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    s1.send('event: variant\ndata: [{"id":9,"project_id":5,"state":"processing","progress":55,"error":"","duration_ms":0,"updated_at":7}]\n\n');
    s1.send('event: media\ndata: [{"id":3,"state":"ready","progress":100,"error":"","asr_state":"","updated_at":1}]\n\n');
    await vi.waitFor(() => expect(variants).toHaveLength(1));
    await vi.waitFor(() => expect(media).toHaveLength(1));
    expect(variants[0]).toEqual([{ id: 9, project_id: 5, state: 'processing', progress: 55, error: '', duration_ms: 0, updated_at: 7 }]);
    expect(media[0]).toEqual([row(3, 'ready', 100)]);
    offMedia();
    offVariants();
  });

  it('an answer that is not an event stream (e.g. JSON) counts as down', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{"code":200}', { status: 200, headers: { 'content-type': 'application/json' } })));
    const statuses: StreamStatus[] = [];
    const off = subscribeVariantEvents({ onStatus: (s) => statuses.push(s) });
    await vi.waitFor(() => expect(statuses.at(-1)).toBe('down'));
    expect(statuses).not.toContain('open');
    off();
  });
});
