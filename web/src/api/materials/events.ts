/**
 * Progress of the caller's materials and finished videos: `GET /api/events` (server-sent events, event
 * `media`, data `[{id, state, progress, error, asr_state, updated_at}]`, and event `variant`, data
 * `[{id, project_id, state, progress, error, duration_ms, updated_at}]`; event `lead`: new leads assigned
 * to the caller). EventSource cannot send the
 * bearer header, so the stream is read with fetch and a ReadableStream reader. One connection serves
 * every subscriber of the page (material pages and the finished-video library alike); it reconnects
 * after a drop (1 s, 2 s, 4 s … 15 s) and reports whether it is up, so the pages can fall back to
 * polling while it is not. An answer that is not an event stream (e.g. JSON) counts as refused.
 */
import type { VariantEvent } from '../clip/types';
import { buildHeaders, buildUrl } from '../request';
import type { MediaEvent } from './types';

export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/**
 * An incremental text/event-stream parser: feed it decoded text as it arrives; it calls `onMessage`
 * for every complete message (blank-line terminated). Comments (`:`) are skipped, multi-line data is
 * joined with '\n', CRLF / CR / LF all end a line.
 */
export function createSseParser(onMessage: (message: SseMessage) => void) {
  let buffer = '';
  /** The last chunk ended with '\r': a '\n' starting the next one belongs to it. */
  let afterCR = false;
  let event = '';
  let data: string[] = [];
  let id: string | undefined;

  const dispatch = () => {
    if (data.length) onMessage({ event: event || 'message', data: data.join('\n'), ...(id !== undefined ? { id } : {}) });
    event = '';
    data = [];
  };

  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id') id = value;
  };

  return {
    push(chunk: string) {
      if (!chunk) return;
      if (afterCR && chunk.startsWith('\n')) chunk = chunk.slice(1);
      afterCR = false;
      buffer += chunk;
      for (;;) {
        const match = /\r\n|\r|\n/.exec(buffer);
        if (!match) break;
        line(buffer.slice(0, match.index));
        buffer = buffer.slice(match.index + match[0].length);
        if (match[0] === '\r' && buffer === '') afterCR = true;
      }
    },
    /** The stream ended: an unterminated message is dropped (as the standard says). */
    end() {
      buffer = '';
      afterCR = false;
      event = '';
      data = [];
    },
  };
}

/** Rows of a message's data (objects with a numeric id); anything malformed is ignored. */
function parseRows<T extends { id: number }>(data: string): T[] {
  try {
    const rows = JSON.parse(data) as unknown;
    return Array.isArray(rows) ? rows.filter((r): r is T => !!r && typeof r === 'object' && typeof (r as T).id === 'number') : [];
  } catch {
    return [];
  }
}

/** Parses a `media` message's data; anything malformed is ignored. */
export function parseMediaEvents(data: string): MediaEvent[] {
  return parseRows<MediaEvent>(data);
}

/** An AI voice task's progress (event `tts`). */
export interface TtsEvent {
  id: number;
  state: string;
  progress: number;
  reason: string;
  duration_ms: number;
  updated_at: number;
}

/** Parses a `tts` message's data; anything malformed is ignored. */
export function parseTtsEvents(data: string): TtsEvent[] {
  return parseRows<TtsEvent>(data);
}

/** A new lead given to the signed-in user (event `lead`), with its WeChat notice's state. */
export interface LeadEvent {
  id: number;
  lead_id: number;
  user_id: number;
  name: string;
  content: string;
  platform: string;
  source: string;
  /** pending | sent | failed | off */
  wx_state: string;
  wx_reason: string;
  created_at: number;
}

/** Parses a `lead` message's data; anything malformed is ignored. */
export function parseLeadEvents(data: string): LeadEvent[] {
  return parseRows<LeadEvent>(data);
}

/** A one-touch job's progress (event `one_touch`). */
export interface OneTouchEvent {
  id: number;
  state: string;
  progress: number;
  reason: string;
  project_id: number;
  updated_at: number;
}

/** Parses a `one_touch` message's data; anything malformed is ignored. */
export function parseOneTouchEvents(data: string): OneTouchEvent[] {
  return parseRows<OneTouchEvent>(data);
}

/** Parses a `variant` message's data; anything malformed is ignored. */
export function parseVariantEvents(data: string): VariantEvent[] {
  return parseRows<VariantEvent>(data);
}

export type StreamStatus = 'connecting' | 'open' | 'down';

export interface ProgressListener {
  /** `media` events: materials. */
  onEvents?: (rows: MediaEvent[]) => void;
  /** `variant` events: finished videos (the /piece_rep library). */
  onVariants?: (rows: VariantEvent[]) => void;
  /** `tts` events: AI voice tasks (/ai_voice). */
  onTts?: (rows: TtsEvent[]) => void;
  /** `lead` events: new leads assigned to the caller (the console's notification). */
  onLead?: (rows: LeadEvent[]) => void;
  /** `one_touch` events: one-touch video jobs (/newAiHome). */
  onOneTouch?: (rows: OneTouchEvent[]) => void;
  onStatus?: (status: StreamStatus) => void;
}
export type MediaEventListener = ProgressListener;
export type VariantEventListener = Pick<ProgressListener, 'onVariants' | 'onStatus'>;

export const RETRY_MIN_MS = 1000;
export const RETRY_MAX_MS = 15000;

/** Delay before the n-th reconnect (n from 0). */
export function retryDelay(attempt: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** Math.max(0, attempt));
}

const listeners = new Set<ProgressListener>();
let controller: AbortController | null = null;
let status: StreamStatus = 'down';
let retryTimer: ReturnType<typeof setTimeout> | undefined;

function setStatus(next: StreamStatus) {
  status = next;
  for (const l of listeners) l.onStatus?.(next);
}

async function connect(attempt: number): Promise<void> {
  const mine = new AbortController();
  controller = mine;
  setStatus('connecting');
  let opened = false;
  try {
    const url = buildUrl('/events', 'GET');
    const headers = { ...buildHeaders({ url: '/events', method: 'GET' }), accept: 'text/event-stream' };
    const response = await fetch(url, { headers, signal: mine.signal, credentials: 'same-origin', cache: 'no-store' });
    if (response.status === 401) {
      setStatus('down'); // signed out: the page's own calls (polling) handle the session
      return;
    }
    const type = response.headers.get('content-type');
    if (!response.ok || !response.body || (type && !type.includes('text/event-stream'))) throw new Error(`events answered ${response.status} ${type ?? ''}`);
    opened = true;
    setStatus('open');
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const parser = createSseParser((message) => {
      if (message.event === 'media') {
        const rows = parseMediaEvents(message.data);
        if (rows.length) for (const l of listeners) l.onEvents?.(rows);
      } else if (message.event === 'variant') {
        const rows = parseVariantEvents(message.data);
        if (rows.length) for (const l of listeners) l.onVariants?.(rows);
      } else if (message.event === 'tts') {
        const rows = parseTtsEvents(message.data);
        if (rows.length) for (const l of listeners) l.onTts?.(rows);
      } else if (message.event === 'lead') {
        const rows = parseLeadEvents(message.data);
        if (rows.length) for (const l of listeners) l.onLead?.(rows);
      } else if (message.event === 'one_touch') {
        const rows = parseOneTouchEvents(message.data);
        if (rows.length) for (const l of listeners) l.onOneTouch?.(rows);
      }
    });
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
    parser.end();
  } catch {
    /* dropped or refused: reconnect below */
  }
  if (mine.signal.aborted || controller !== mine) return;
  setStatus('down');
  const next = opened ? 0 : attempt + 1;
  retryTimer = setTimeout(() => {
    if (controller === mine && listeners.size) void connect(next);
  }, retryDelay(opened ? 0 : attempt));
}

/** Listens to the progress stream; returns the unsubscribe function. The connection lives while anyone listens. */
export function subscribeMediaEvents(listener: ProgressListener): () => void {
  listeners.add(listener);
  if (listeners.size === 1) void connect(0);
  else listener.onStatus?.(status);
  return () => {
    listeners.delete(listener);
    if (!listeners.size) {
      clearTimeout(retryTimer);
      const c = controller;
      controller = null;
      c?.abort();
      status = 'down';
    }
  };
}

/** The finished videos' progress (event `variant`) on the same shared connection. */
export function subscribeVariantEvents(listener: VariantEventListener): () => void {
  return subscribeMediaEvents(listener);
}
