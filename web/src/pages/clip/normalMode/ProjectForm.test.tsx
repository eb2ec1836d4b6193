import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Project, ProjectConfig } from '@/api/clip/types';
import i18n from '@/i18n';
import { mockFetch, ok, json, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import ProjectForm from './ProjectForm';

const GROUPS = [
  { id: 11, name: 'Opening', count: 2, ready: 2 },
  { id: 12, name: 'Product', count: 3, ready: 2 },
  { id: 13, name: 'Ending', count: 2, ready: 2 },
  { id: 14, name: 'Empty', count: 1, ready: 0 },
];

let sent: { url: string; body: unknown }[] = [];
let builtinRows: { id: number; name: string; category: string; duration_ms: number }[] = [];
let feedback: ReturnType<typeof spyFeedback>;

beforeAll(async () => {
  await import('../i18n');
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  sent = [];
  builtinRows = [];
  feedback = spyFeedback();
  mockFetch((url, init) => {
    const path = url.pathname.replace('/api', '');
    if (init.method === 'POST') sent.push({ url: path, body: JSON.parse(String(init.body)) });
    if (path.endsWith('/get_resource_group')) return ok({ rows: GROUPS, total: GROUPS.length });
    if (path.endsWith('/getVoiceName'))
      return ok({
        rows: [41, 42, 43, 44].map((id, i) => ({ id, name: i ? `Narration ${i + 1}` : 'Narration', kind: 'audio', state: 'ready', duration_ms: 4000, asr_state: i === 1 ? 'none' : 'success' })),
        total: 4,
      });
    if (path === '/screen.merchant_seo_lexicon/ai_title')
      return ok({ rows: [{ title: '春季上新', style: 'offer', style_name: '促销', score: 70, keywords: ['上新'] }, { title: '今天必吃', style: 'pain', style_name: '痛点', score: 50, keywords: [] }], keywords: [], topics: [], provider: 'builtin' });
    if (path.endsWith('/system_music_index')) return ok({ rows: builtinRows, total: builtinRows.length });
    if (path.endsWith('/music_index') || path.endsWith('/getAll')) return ok({ rows: [], total: 0 });
    if (path.endsWith('/clip.merchant_much_clip/add')) {
      const body = JSON.parse(String(init.body));
      if (body.config.title?.text === 'server says no') return json({ code: 422, message: 'The title is too long (at most 20 characters)', data: { field: 'title' } }, 422);
      return ok({ id: 7, name: body.name, config: body.config });
    }
    if (path.endsWith('/clip.merchant_senior_clip/modify')) {
      const body = JSON.parse(String(init.body));
      return ok({ id: body.id ?? 9, name: body.name, mode: 'senior', config: body.config });
    }
    return ok({});
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

async function addGroup(name: string) {
  fireEvent.mouseDown(within(screen.getByTestId('group-picker-add')).getByRole('combobox'));
  const options = await screen.findAllByTitle(name);
  fireEvent.click(options.at(-1)!);
  await waitFor(() => expect(screen.getByTestId('group-list')).toHaveTextContent(name));
}

const submit = () => fireEvent.click(screen.getByTestId('project-form-ok'));

describe('quick-mix project form', { timeout: 60_000 }, () => {
  it('refuses fewer than three shot groups, then saves the groups in order with their max seconds', async () => {
    const onSaved = vi.fn();
    renderPage(<ProjectForm open project={null} onClose={() => undefined} onSaved={onSaved} />, { route: '/normal_mode' });
    fireEvent.change(await screen.findByTestId('project-form-name'), { target: { value: 'Spring' } });
    await addGroup('Opening');
    await addGroup('Product');
    submit();
    expect(await screen.findByText('At least 3 shot groups are needed', undefined, { timeout: 5000 })).toBeInTheDocument();
    expect(feedback.warning).toHaveBeenCalledWith('Form verification failed, please check input!');
    expect(sent).toHaveLength(0);

    await addGroup('Ending');
    expect(screen.getByTestId('group-count')).toHaveTextContent('Groups: 3 (at least 3)');
    // capacity = 2 x 2 x 2, and 6 ready clips is a small pool (SPEC: at least 80 recommended)
    expect(screen.getByTestId('group-capacity')).toHaveAttribute('data-capacity', '8');
    expect(screen.getByTestId('group-pool-warning')).toHaveTextContent('At least 80 materials are recommended; these groups hold 6 ready clips');
    expect(screen.getByTestId('group-ready-12')).toHaveTextContent('2 ready');
    // Ending first: move it up twice
    fireEvent.click(screen.getByTestId('group-up-13'));
    fireEvent.click(screen.getByTestId('group-up-13'));
    const max = screen.getByTestId('group-max-12');
    fireEvent.change(max.tagName === 'INPUT' ? max : max.querySelector('input')!, { target: { value: '3' } });
    submit();
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(sent).toHaveLength(1);
    const body = sent[0].body as { name: string; config: { groups: unknown; title?: unknown; subtitles: { enabled: boolean } } };
    expect(sent[0].url).toBe('/clip.merchant_much_clip/add');
    expect(body.name).toBe('Spring');
    expect(body.config.groups).toEqual([
      { group_id: 13, max_ms: 0 },
      { group_id: 11, max_ms: 0 },
      { group_id: 12, max_ms: 3000 },
    ]);
    expect(body.config.title).toBeUndefined();
    expect(body.config.subtitles.enabled).toBe(false);
  });

  it('counts the title up to 20 characters, and a group without ready clips is flagged', async () => {
    renderPage(<ProjectForm open project={null} onClose={() => undefined} onSaved={() => undefined} />, { route: '/normal_mode' });
    const title = (await screen.findByTestId('project-form-title')) as HTMLInputElement;
    fireEvent.change(title, { target: { value: '春季上新' } });
    const counter = () => title.closest('.ant-input-affix-wrapper')!.querySelector('.ant-input-show-count-suffix')!.textContent;
    expect(counter()).toBe('4 / 20');
    fireEvent.change(title, { target: { value: '一二三四五六七八九十一二三四五六七八九十多出来' } });
    await waitFor(() => expect(title.value).toBe('一二三四五六七八九十一二三四五六七八九十'));
    expect(counter()).toBe('20 / 20');
    await addGroup('Empty');
    expect(screen.getByTestId('group-empty-warning')).toHaveTextContent('No ready clips yet in: Empty');
    expect(screen.getByTestId('group-ready-14')).toHaveTextContent('0 ready');
  });

  it('generates titles of at most 20 characters from the project name and puts the picked ones in, the videos taking them in turn', async () => {
    renderPage(<ProjectForm open project={null} onClose={() => undefined} onSaved={() => undefined} />, { route: '/normal_mode' });
    fireEvent.change(await screen.findByTestId('project-form-name'), { target: { value: 'Spring hot pot' } });
    fireEvent.click(screen.getByTestId('project-form-title-generate'));
    fireEvent.click(await screen.findByTestId('pick-generate', undefined, { timeout: 5000 }));
    await waitFor(() => expect(sent.find((c) => c.url === '/screen.merchant_seo_lexicon/ai_title')?.body).toEqual({ text: 'Spring hot pot', count: 10, max_chars: 20, lang: 'en' }));
    fireEvent.click(within(await screen.findByTestId('pick-row-今天必吃')).getByRole('checkbox'));
    fireEvent.click(screen.getByTestId('pick-insert'));
    await waitFor(() => expect(screen.getByTestId('project-form-title')).toHaveValue('今天必吃'));
    expect(screen.queryByTestId('project-form-title-2')).toBeNull();
    // A second title by hand, a repeat refused, then saved as the titles in turn with the levers on.
    fireEvent.click(screen.getByTestId('project-form-title-add'));
    fireEvent.change(await screen.findByTestId('project-form-title-2'), { target: { value: '今天必吃' } });
    expect(await screen.findByText('This title is given twice')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('project-form-title-2'), { target: { value: '周末好去处' } });
    await waitFor(() => expect(screen.queryByText('This title is given twice')).toBeNull());
    fireEvent.click(screen.getByTestId('project-form-trim-vary'));
    fireEvent.click(screen.getByTestId('project-form-text-vary'));
    for (const name of ['Opening', 'Product', 'Ending']) await addGroup(name);
    submit();
    await waitFor(() => expect(sent.find((c) => c.url.endsWith('/add'))).toBeTruthy(), { timeout: 5000 });
    const body = sent.find((c) => c.url.endsWith('/add'))!.body as { config: ProjectConfig };
    expect(body.config.title).toMatchObject({ text: '今天必吃', texts: ['今天必吃', '周末好去处'] });
    expect([body.config.trim_vary, body.config.text_vary]).toEqual([true, true]);
  });

  it('refuses a colour that is not #RRGGBB and subtitles without a voice-over', async () => {
    const project = {
      id: 3,
      name: 'Old',
      status: 1,
      config: {
        groups: [{ group_id: 11 }, { group_id: 12 }, { group_id: 13 }],
        subtitles: { enabled: true, style: { font_id: null, size: 56, color: '#FFFFFF', position: 'bottom' } },
        title: { text: 'Hello', style: { font_id: null, size: 72, color: 'gold', position: 'top' } },
        cover_ms: 0,
        output_count: 2,
      },
    } as unknown as Project;
    renderPage(<ProjectForm open project={project} onClose={() => undefined} onSaved={() => undefined} />, { route: '/normal_mode' });
    await screen.findByTestId('group-row-13');
    submit();
    expect(await screen.findByText('Colour must be #RRGGBB', undefined, { timeout: 5000 })).toBeInTheDocument();
    expect(await screen.findByText('Subtitles come from the voice-over: choose one', undefined, { timeout: 5000 })).toBeInTheDocument();
    expect(sent).toHaveLength(0);
  });

  it('takes up to 3 voice-over files (the videos use them in turn) and sends them as media_ids', async () => {
    const onSaved = vi.fn();
    renderPage(<ProjectForm open project={null} onClose={() => undefined} onSaved={onSaved} />, { route: '/normal_mode' });
    fireEvent.change(await screen.findByTestId('project-form-name'), { target: { value: 'Voices' } });
    for (const g of ['Opening', 'Product', 'Ending']) await addGroup(g);
    expect(screen.getAllByText(/Up to 3 files; the videos take them in turn/).length).toBeGreaterThan(0);
    fireEvent.mouseDown(within(screen.getByTestId('project-form-voice')).getByRole('combobox'));
    for (const name of ['Narration', 'Narration 2', 'Narration 3']) fireEvent.click(await screen.findByTitle(name));
    // A fourth cannot be chosen: the select stops at 3.
    fireEvent.click(await screen.findByTitle('Narration 4'));
    fireEvent.click(screen.getByTestId('project-form-subtitles'));
    // Narration 2 has no recognized lines: its videos would have no subtitles.
    expect(await screen.findByTestId('project-form-subtitles-warning')).toHaveTextContent('Narration 2');
    await act(async () => submit());
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const body = sent[0].body as { config: { voice: unknown } };
    expect(body.config.voice).toEqual({ media_ids: [41, 42, 43], volume: 100 });
  });

  it('built-in music: says "none yet" when the set is empty, and sends the chosen track', async () => {
    const onSaved = vi.fn();
    const view = renderPage(<ProjectForm open project={null} onClose={() => undefined} onSaved={onSaved} />, { route: '/normal_mode' });
    fireEvent.change(await screen.findByTestId('project-form-name'), { target: { value: 'Music' } });
    for (const g of ['Opening', 'Product', 'Ending']) await addGroup(g);
    fireEvent.click(within(screen.getByTestId('project-form-music-source')).getByRole('radio', { name: 'Built-in' }));
    expect(await screen.findByTestId('project-form-music-builtin-empty')).toHaveTextContent('No built-in music yet');
    view.unmount();

    builtinRows = [{ id: 3, name: 'Pulse · 100 BPM', category: '', duration_ms: 14_400 }];
    renderPage(<ProjectForm open project={null} onClose={() => undefined} onSaved={onSaved} />, { route: '/normal_mode' });
    fireEvent.change(await screen.findByTestId('project-form-name'), { target: { value: 'Music' } });
    for (const g of ['Opening', 'Product', 'Ending']) await addGroup(g);
    fireEvent.click(within(screen.getByTestId('project-form-music-source')).getByRole('radio', { name: 'Built-in' }));
    fireEvent.mouseDown(await within(screen.getByTestId('project-form-music-builtin')).findByRole('combobox'));
    fireEvent.click(await screen.findByTitle('Pulse · 100 BPM'));
    expect(screen.queryByTestId('project-form-music-builtin-empty')).not.toBeInTheDocument();
    await act(async () => submit());
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect((sent[0].body as { config: { music: unknown } }).config.music).toEqual({ system_music_id: 3, volume: 60 });
  });

  it('a 422 from the server is toasted and the dialog stays open', async () => {
    const onSaved = vi.fn();
    renderPage(<ProjectForm open project={null} onClose={() => undefined} onSaved={onSaved} />, { route: '/normal_mode' });
    fireEvent.change(await screen.findByTestId('project-form-name'), { target: { value: 'Spring' } });
    for (const g of ['Opening', 'Product', 'Ending']) await addGroup(g);
    fireEvent.change(screen.getByTestId('project-form-title'), { target: { value: 'server says no' } });
    await act(async () => submit());
    await waitFor(() => expect(feedback.error).toHaveBeenCalledWith('The title is too long (at most 20 characters)'));
    expect(onSaved).not.toHaveBeenCalled();
    expect(screen.getByTestId('project-form-ok')).toBeInTheDocument();
  });

  it('advanced mode: saves each shot\'s start, length, caption and transition, and the captions\' style, through the senior call', async () => {
    const onSaved = vi.fn();
    renderPage(<ProjectForm mode="senior" open project={null} onClose={() => undefined} onSaved={onSaved} />, { route: '/high_modeVisualization_clip' });
    expect(await screen.findByText('New advanced project')).toBeInTheDocument();
    fireEvent.change(await screen.findByTestId('project-form-name'), { target: { value: 'Advanced' } });
    for (const g of ['Opening', 'Product', 'Ending']) await addGroup(g);
    const field = (id: string) => {
      const el = screen.getByTestId(id);
      return el.tagName === 'INPUT' ? el : el.querySelector('input')!;
    };
    // the captions' style shows once a shot has a caption
    expect(screen.getByTestId('project-form-shot-text')).toHaveAttribute('hidden');
    fireEvent.change(field('group-text-11'), { target: { value: '第一镜' } });
    await waitFor(() => expect(screen.getByTestId('project-form-shot-text')).not.toHaveAttribute('hidden'));
    expect(screen.getByText('Shot captions')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('project-form-shot-text-size'), { target: { value: '80' } });
    fireEvent.change(field('group-start-12'), { target: { value: '1.5' } });
    fireEvent.change(field('group-max-12'), { target: { value: '2' } });
    fireEvent.mouseDown(within(screen.getByTestId('group-transition-11')).getByRole('combobox'));
    fireEvent.click((await screen.findAllByTitle('Fade')).at(-1)!);
    await waitFor(() => expect(field('group-transition-ms-11')).toHaveValue('500'));
    expect(within(screen.getByTestId('group-transition-13')).getByRole('combobox')).toBeDisabled();
    submit();
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(sent).toHaveLength(1);
    expect(sent[0].url).toBe('/clip.merchant_senior_clip/modify');
    const body = sent[0].body as { id?: number; name: string; config: { groups: unknown; shot_style?: unknown } };
    expect(body.id).toBeUndefined();
    expect(body.name).toBe('Advanced');
    expect(body.config.groups).toEqual([
      { group_id: 11, max_ms: 0, text: '第一镜', transition: { kind: 'fade', ms: 500 } },
      { group_id: 12, max_ms: 2000, in_ms: 1500 },
      { group_id: 13, max_ms: 0 },
    ]);
    expect(body.config.shot_style).toEqual({ font_id: null, size: 80, color: '#FFFFFF', position: 'middle' });
  });

  it('advanced mode: edits an existing project with its id, and refuses a transition left on the last shot', async () => {
    const project = {
      id: 9,
      name: 'Adv',
      mode: 'senior',
      status: 1,
      config: {
        groups: [
          { group_id: 11, max_ms: 0, in_ms: 500, text: 'Hi', transition: { kind: 'wipeleft', ms: 700 } },
          { group_id: 12, max_ms: 0 },
          { group_id: 13, max_ms: 0, transition: { kind: 'fade', ms: 500 } },
        ],
        subtitles: { enabled: false, style: { font_id: null, size: 56, color: '#FFFFFF', position: 'bottom' } },
        cover_ms: 0,
        output_count: 2,
        shot_style: { font_id: null, size: 64, color: '#FFFFFF', position: 'middle' },
      },
    } as unknown as Project;
    const onSaved = vi.fn();
    renderPage(<ProjectForm mode="senior" open project={project} onClose={() => undefined} onSaved={onSaved} />, { route: '/high_modeVisualization_clip' });
    await screen.findByTestId('group-row-13');
    expect(screen.getByTestId('group-problem-13')).toHaveTextContent('Shot 3: the last shot cannot have a transition');
    submit();
    // under the shot, and as the form's message for the groups
    await waitFor(() => expect(screen.getAllByText('Shot 3: the last shot cannot have a transition')).toHaveLength(2), { timeout: 5000 });
    expect(sent).toHaveLength(0);
    // moving the last shot up hands it a next shot; the new last one (12) has no transition
    fireEvent.click(screen.getByTestId('group-up-13'));
    await waitFor(() => expect(screen.queryByTestId('group-problem-13')).toBeNull());
    submit();
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const body = sent[0].body as { id: number; config: { groups: unknown } };
    expect(sent[0].url).toBe('/clip.merchant_senior_clip/modify');
    expect(body.id).toBe(9);
    expect(body.config.groups).toEqual([
      { group_id: 11, max_ms: 0, in_ms: 500, text: 'Hi', transition: { kind: 'wipeleft', ms: 700 } },
      { group_id: 13, max_ms: 0, transition: { kind: 'fade', ms: 500 } },
      { group_id: 12, max_ms: 0 },
    ]);
  });

  it.each(['normal', 'senior'] as const)('Esc on a half-filled new %s project asks before it throws the input away', async (mode) => {
    const onClose = vi.fn();
    renderPage(<ProjectForm mode={mode} open project={null} onClose={onClose} onSaved={() => undefined} />, { route: '/clip' });
    fireEvent.change(await screen.findByTestId('project-form-name'), { target: { value: 'Spring' } });
    fireEvent.keyDown(screen.getByTestId('project-form-wrap'), { key: 'Escape', keyCode: 27 });
    expect(onClose).not.toHaveBeenCalled();
    expect(feedback.confirm).toHaveBeenCalledWith(expect.objectContaining({ title: 'Discard your changes?' }));
    act(() => feedback.confirm.mock.calls[0][0].onOk());
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
