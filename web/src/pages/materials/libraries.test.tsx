import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { eventStream, mediaFile } from '@/test/media';
import { mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import FontPage from './font';
import ImageLibraryPage from './image';
import MusicPage from './music';
import SpeakPage from './speak';
import SystemMusicPage from './systemMusic';

// the material pages are heavy to render on a busy machine: give async queries time

type Call = { path: string; body: unknown; query: URLSearchParams };
let feedback: ReturnType<typeof spyFeedback>;
let calls: Call[];
let events: ReturnType<typeof eventStream>;
let routes: Record<string, (call: Call) => Response>;

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  feedback = spyFeedback();
  calls = [];
  events = eventStream();
  routes = {};
  mockFetch((url, init) => {
    const call = { path: url.pathname, body: init.body ? JSON.parse(String(init.body)) : undefined, query: url.searchParams };
    calls.push(call);
    if (url.pathname === '/api/events') return events.response();
    return routes[url.pathname]?.(call) ?? ok({});
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

const find = (id: string) => screen.findByTestId(id, {}, { timeout: 8000 });
const bodiesOf = (path: string) => calls.filter((c) => c.path === path).map((c) => c.body);
const filterOf = (path: string) => calls.filter((c) => c.path === path).map((c) => JSON.parse(c.query.get('filterObj') ?? '{}'));

describe('/speak', () => {
  beforeEach(() => {
    routes['/api/bpdr.merchant_mediainfo/getVoiceName'] = () =>
      ok({
        rows: [
          mediaFile(21, { library: 'voice', kind: 'audio', name: 'intro.mp3', original_name: 'intro-take2.mp3', duration_ms: 3030, asr_state: 'processing', poster: null, download: '/files/21/listen?e=1&s=y&dl=1' }),
          mediaFile(22, { library: 'voice', kind: 'audio', name: 'outro.mp3', duration_ms: 61_000, asr_state: 'failed', asr_error: 'no speech found' }),
          mediaFile(23, { library: 'voice', kind: 'audio', name: 'late.mp3', state: 'processing', progress: 30 }),
        ],
        total: 3,
      });
    routes['/api/media.merchant_much_resource/asr_add'] = () => ok({ job_id: 7, points: 2, asr_state: 'processing' });
  });

  it('lists task id, original file name, duration in seconds, file and subtitle states, and a player', async () => {
    renderPage(<SpeakPage />, { route: '/speak' });
    const row = await find('speak-row-21');
    expect(within(row).getByText('21')).toBeInTheDocument();
    expect(within(row).getByText('intro-take2.mp3')).toBeInTheDocument();
    expect(within(row).getByText('3')).toBeInTheDocument(); // 3.03 s → 3
    expect(screen.getByTestId('asr-state-21')).toHaveTextContent('Recognizing');
    expect(screen.getByTestId('asr-state-22')).toHaveTextContent('Recognition failed');
    expect(screen.getByTestId('state-23')).toHaveAttribute('data-state', 'processing');
    expect(screen.getByTestId('audio-21')).toHaveAttribute('src', '/files/21/original?e=1&s=x');
    // no second recognition while one runs
    expect(screen.getByTestId('asr-recognize-21')).toBeDisabled();
  });

  it("downloads a voice through the server's download link (generated speech carries its AI cue there), not the player", async () => {
    renderPage(<SpeakPage />, { route: '/speak' });
    const button = await find('voice-download-21');
    expect(button).toHaveAttribute('href', '/files/21/listen?e=1&s=y&dl=1');
    expect(button).toHaveTextContent('Download');
    expect(screen.getByTestId('audio-21')).toHaveAttribute('controlslist', 'nodownload');
    // no download link: the player stays as it is
    expect(screen.queryByTestId('voice-download-22')).toBeNull();
    expect(screen.getByTestId('audio-22')).not.toHaveAttribute('controlslist');
  });

  it('recognizes subtitles in the chosen language and tells the points charged', async () => {
    renderPage(<SpeakPage />, { route: '/speak' });
    fireEvent.click(await find('asr-recognize-22'));
    expect(await screen.findByText('Costs 2 points (1 point per started minute, refunded if it fails)')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('asr-lang-en-22'));
    fireEvent.click(screen.getByTestId('asr-recognize-ok-22'));
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('Recognition started, 2 points charged'));
    expect(bodiesOf('/api/media.merchant_much_resource/asr_add')).toEqual([{ resource_id: 22, lang: 'en' }]);
  });

  it('follows the recognition through the stream', async () => {
    renderPage(<SpeakPage />, { route: '/speak' });
    await find('speak-row-21');
    act(() => events.send([{ id: 21, state: 'ready', progress: 100, asr_state: 'success' }]));
    await waitFor(() => expect(screen.getByTestId('asr-state-21')).toHaveTextContent('Subtitles ready'));
  });
});

describe('/music', () => {
  beforeEach(() => {
    routes['/api/bpdr.merchant_file_type/audio_index'] = () => ok({ rows: [{ id: 5, name: 'Upbeat', kind: 'audio', parent_id: 0 }], total: 1 });
    routes['/api/media.merchant_producing_upfile/music_index'] = () =>
      ok({ rows: [mediaFile(31, { library: 'music', kind: 'audio', name: 'beat.mp3', file_type_id: 5, size: 2_400_000, duration_ms: 95_000 })], total: 1 });
    routes['/api/media.merchant_producing_upfile/system_music_index'] = () =>
      ok({ rows: [{ id: 1, name: 'Light piano', category: 'piano', mime: 'audio/mpeg', size: 24468, duration_ms: 3030, created_at: 1, src: '/files/1/system?e=1&s=x' }], total: 1 });
    routes['/api/clip.merchant_music_library/save'] = () => ok(mediaFile(32, { library: 'music', kind: 'audio' }));
  });

  it('shows my music with its category, size and a player; a category filters the list', async () => {
    renderPage(<MusicPage />, { route: '/music' });
    const row = await find('music-row-31');
    expect(within(row).getByText('2.29 MB')).toBeInTheDocument();
    expect(within(row).getByText('1:35')).toBeInTheDocument();
    expect(within(screen.getByTestId('category-select-31')).getByText('Upbeat')).toBeInTheDocument();
    expect(screen.getByTestId('audio-31')).toBeInTheDocument();
    fireEvent.click(await find('music-category-node-5'));
    await waitFor(() => expect(filterOf('/api/media.merchant_producing_upfile/music_index').at(-1)).toEqual({ file_type_id: '5|include' }));
  });

  it('adds a built-in track to my library', async () => {
    renderPage(<MusicPage />, { route: '/music' });
    fireEvent.click(await find('music-tab-builtin'));
    const row = await find('builtin-music-row-1');
    expect(within(row).getByText('piano')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('builtin-add-1'));
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('Light piano added to my music'));
    expect(bodiesOf('/api/clip.merchant_music_library/save')).toEqual([{ system_music_id: 1 }]);
  });
});

describe('/image', () => {
  beforeEach(() => {
    routes['/api/bpdr.merchant_file_type/image_tree'] = () =>
      ok([{ id: 7, name: 'Products', kind: 'image', parent_id: 0, children: [{ id: 8, name: 'Shoes', kind: 'image', parent_id: 7, children: [] }] }]);
    routes['/api/media.merchant_producing_upfile/image_index'] = () =>
      ok({ rows: [mediaFile(41, { library: 'image', kind: 'image', name: 'shoe.png', width: 800, height: 600, file_type_id: 8 })], total: 1 });
    routes['/api/clip.merchant_image_library/save'] = () => ok(mediaFile(41, { kind: 'image' }));
  });

  it('shows thumbnails, resolution and category; a category filters with its subcategories', async () => {
    renderPage(<ImageLibraryPage />, { route: '/image' });
    const row = await find('image-row-41');
    expect(within(row).getByText('800×600')).toBeInTheDocument();
    expect(row.querySelector('img')).toHaveAttribute('src', '/files/41/original?e=1&s=x');
    expect(within(screen.getByTestId('category-select-41')).getByText(/Shoes/)).toBeInTheDocument();
    fireEvent.click(await find('image-category-node-7'));
    await waitFor(() => expect(filterOf('/api/media.merchant_producing_upfile/image_index').at(-1)).toEqual({ file_type_id: '7,8|include' }));
  });

  it('opens the multi-image uploader (crop dialog kind) for the upload', async () => {
    renderPage(<ImageLibraryPage />, { route: '/image' });
    fireEvent.click(await find('image-upload'));
    const input = (await find('image-upload-list-input')) as HTMLInputElement;
    expect(input.accept).toBe('image/gif,image/jpeg,image/png');
  });
});

describe('/font', () => {
  const added: unknown[] = [];
  beforeEach(() => {
    routes['/api/media.merchant_font_style/index'] = () =>
      ok({ rows: [mediaFile(51, { library: 'font', kind: 'font', name: 'Serif Italic', original_name: 'serif.ttf', mime: 'font/ttf', poster: null })], total: 1 });
  });

  it('draws the preview text in the font itself, loaded from its signed URL', async () => {
    const loads: string[] = [];
    class FakeFontFace {
      constructor(
        readonly family: string,
        readonly source: string,
      ) {
        loads.push(`${family} ${source}`);
      }
      load() {
        return Promise.resolve(this);
      }
    }
    vi.stubGlobal('FontFace', FakeFontFace);
    Object.defineProperty(document, 'fonts', { configurable: true, value: { add: (f: unknown) => added.push(f) } });
    renderPage(<FontPage />, { route: '/font' });
    const preview = await find('font-preview-51');
    await waitFor(() => expect(preview).toHaveAttribute('data-state', 'ready'));
    expect(preview.style.fontFamily).toContain('cm-font-51');
    expect(loads).toEqual(['cm-font-51 url("/files/51/original?e=1&s=x")']);
    expect(added).toHaveLength(1);
    fireEvent.change(screen.getByTestId('font-sample'), { target: { value: 'Hello fonts' } });
    expect(screen.getByTestId('font-preview-51')).toHaveTextContent('Hello fonts');
  });

  it('says so when the font cannot be loaded', async () => {
    vi.stubGlobal('FontFace', undefined);
    routes['/api/media.merchant_font_style/index'] = () => ok({ rows: [mediaFile(52, { kind: 'font', name: 'Broken' })], total: 1 });
    renderPage(<FontPage />, { route: '/font' });
    await waitFor(async () => expect(await find('font-preview-52')).toHaveAttribute('data-state', 'failed'));
    expect(screen.getByTestId('font-preview-52')).toHaveTextContent('The font could not be loaded');
  });
});

describe('/system/music', () => {
  beforeEach(() => {
    routes['/api/system/music/index'] = () =>
      ok({ rows: [{ id: 3, name: 'Light piano', category: 'piano', mime: 'audio/mpeg', size: 24468, duration_ms: 3030, created_at: 1, src: '/files/3/system?e=1&s=x' }], total: 1 });
  });

  it('lists the built-in set and deletes a track', async () => {
    renderPage(<SystemMusicPage />, { route: '/system/music' });
    const row = await find('system-music-row-3');
    expect(within(row).getByText('piano')).toBeInTheDocument();
    expect(screen.getByTestId('audio-3')).toHaveAttribute('src', '/files/3/system?e=1&s=x');
    fireEvent.click(screen.getByTestId('system-music-delete-3'));
    fireEvent.click(await screen.findByTestId('system-music-delete-ok-3'));
    await waitFor(() => expect(bodiesOf('/api/system/music/delete')).toEqual([{ id: 3 }]));
  });

  it('uploads with the name and category fields before the file', async () => {
    const { installFakeXhr } = await import('@/test/xhr');
    const Xhr = installFakeXhr();
    renderPage(<SystemMusicPage />, { route: '/system/music' });
    fireEvent.click(await find('system-music-upload'));
    fireEvent.change(await find('system-music-name'), { target: { value: 'Calm' } });
    fireEvent.change(screen.getByTestId('system-music-category'), { target: { value: 'ambient' } });
    fireEvent.change(screen.getByTestId('system-music-upload-files-input'), { target: { files: [new File(['ID3'], 'calm.mp3', { type: 'audio/mpeg' })] } });
    await waitFor(() => expect(Xhr.all).toHaveLength(1));
    expect(Xhr.all[0].url).toMatch(/^\/api\/system\/music\/add/);
    expect([...Xhr.all[0].body!.keys()]).toEqual(['name', 'category', 'file']);
    expect(Xhr.all[0].body!.get('category')).toBe('ambient');
  });
});
