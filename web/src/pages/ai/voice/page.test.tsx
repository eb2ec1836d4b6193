import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { bodiesOf, inputOf, renderAt, setupSeoPage } from '@/pages/seo/testing';
import { json } from '@/test/utils';
import '../i18n';
import { price, voiceGroups } from '../rules';
import AiVoicePage from '.';

const voice = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: id,
  language: id.startsWith('z') ? 'zh' : 'en',
  gender: id[1] === 'f' ? 'female' : 'male',
  style: 'warm',
  source: 'builtin',
  liked: false,
  sample: `/files/0/sample?e=1&s=x`,
  ...extra,
});

const task = (id: number, state: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `task ${id}`,
  text: '你好。',
  voice: 'zf_xiaoxiao',
  volume: 50,
  speed: 0,
  intonation: 0,
  chars: 3,
  points: 1,
  state,
  progress: state === 'done' ? 100 : 10,
  reason: state === 'failed' ? 'Speech synthesis failed: boom' : '',
  duration_ms: state === 'done' ? 2500 : 0,
  lines: state === 'done' ? [{ start_ms: 0, end_ms: 2000, content: '你好' }] : [],
  src: state === 'done' ? `/files/${id}/tts?e=1&s=x` : null,
  media_id: 0,
  job_id: id,
  created_at: Date.UTC(2026, 0, 2),
  updated_at: Date.UTC(2026, 0, 2),
  ...extra,
});

let cloning = true;
const ctx = setupSeoPage((path, body) => {
  if (path === '/ai.MerchantDub/get_voice_list')
    return { rows: [voice('zf_xiaoxiao', { name: '晓晓' }), voice('zm_yunxi', { liked: true }), voice('af_heart'), voice('clone:S_1', { source: 'clone', sample: null })], engine: 'builtin', cloning };
  if (path === '/ai.MerchantDub/nlsAudition') return { audio: '/audition?t=7b&s=00', streamed: true, duration_ms: 0, lines: [{ start_ms: 0, end_ms: 1800, content: '第一句' }] };
  if (path === '/ai.MerchantDub/putNlsTask') {
    if (body.volume === 100 && body.text === 'bad')
      return json({ code: 422, message: 'There is no such voice: nope', data: { field: 'voice' } }, 422);
    return task(9, 'queued', { points: 1 });
  }
  if (path === '/ai.MerchantDub/taskList') return { rows: [task(1, 'done'), task(2, 'failed'), task(3, 'running')], total: 3 };
  if (path === '/doubao.db_audio/cloning') {
    if (!cloning) return json({ code: 422, message: 'No voice cloning service is configured; ask the Administrator to set one up', data: { field: 'speaker_id' } }, 422);
    return { rows: [{ id: 4, name: 'Me', speaker_id: 'S_1', voice: 'clone:S_1', state: 'training', reason: '', created_at: 1 }], total: 1 };
  }
  if (path === '/bpdr.merchant_mediainfo/getVoiceName') return { rows: [{ id: 31, name: 'me.wav', duration_ms: 12_000 }], total: 1 };
  if (path === '/index/copyCheck')
    return String(body.text).includes('根治')
      ? {
          findings: [{ start: 3, end: 5, term: '根治', rule_id: 'ad.medical.cure', kind: 'medical', severity: 'block', source: 'Advertising Law, Art. 17', explanation: 'No medical claims', suggestion: '改善' }],
          blocked: true,
        }
      : { findings: [], blocked: false };
  return undefined;
});

describe('AI voice rules', () => {
  it('prices per started 100 characters and groups the voices', () => {
    expect(price('')).toBe(0);
    expect(price('字'.repeat(100))).toBe(1);
    expect(price('字'.repeat(101))).toBe(2);
    const groups = voiceGroups([voice('zf_a'), voice('zm_b', { liked: true }), voice('af_c'), voice('clone:S', { source: 'clone' })] as never);
    expect(groups.map((g) => [g.key, g.voices.map((v) => v.id)])).toEqual([
      ['favourites', ['zm_b']],
      ['zh', ['zf_a']],
      ['en', ['af_c']],
      ['clones', ['clone:S']],
    ]);
  });
});

describe('/ai_voice', { timeout: 60_000 }, () => {
  it('previews the first sentence and queues a task with the chosen settings', async () => {
    renderAt(<AiVoicePage />, '/ai_voice');
    await screen.findByTestId('ai-form');
    fireEvent.change(inputOf('ai-text'), { target: { value: '第一句。第二句。' } });
    await waitFor(() => expect(screen.getByTestId('ai-cost')).toHaveTextContent('Costs 1 points'));
    fireEvent.click(screen.getByTestId('ai-audition'));
    expect(await screen.findByTestId('ai-preview-line')).toHaveTextContent('第一句');
    expect(screen.getByTestId('ai-preview-audio')).toHaveAttribute('src', '/audition?t=7b&s=00');
    expect(bodiesOf(ctx.calls, '/ai.MerchantDub/nlsAudition')).toEqual([{ text: '第一句。第二句。', voice: 'zf_xiaoxiao', volume: 50, speed: 0, intonation: 0, name: '', stream: true }]);

    fireEvent.click(screen.getByTestId('ai-submit'));
    await waitFor(() => expect(ctx.feedback.success).toHaveBeenCalledWith('Voice task queued, 1 points used'));
    expect(bodiesOf(ctx.calls, '/ai.MerchantDub/putNlsTask')).toHaveLength(1);
    // Queued: the task list opens.
    expect(await screen.findByTestId('task-name-1')).toHaveTextContent('task 1');
  });

  it('flags a claim in the script as it is typed and applies the safe rewrite', async () => {
    renderAt(<AiVoicePage />, '/ai_voice');
    await screen.findByTestId('ai-form');
    fireEvent.change(inputOf('ai-text'), { target: { value: '一次就根治脱发' } });
    const finding = await screen.findByTestId('ai-text-copy-check-finding', {}, { timeout: 5000 });
    expect(finding).toHaveAttribute('data-severity', 'block');
    fireEvent.click(screen.getByTestId('ai-text-copy-check-apply'));
    await waitFor(() => expect(inputOf('ai-text')).toHaveValue('一次就改善脱发'));
  });

  it('needs a script before calling the server', async () => {
    renderAt(<AiVoicePage />, '/ai_voice');
    await screen.findByTestId('ai-form');
    fireEvent.click(screen.getByTestId('ai-submit'));
    expect(await screen.findByText('Enter the script')).toBeInTheDocument();
    expect(bodiesOf(ctx.calls, '/ai.MerchantDub/putNlsTask')).toEqual([]);
  });

  it('lists tasks with state, audio, import and delete', async () => {
    renderAt(<AiVoicePage />, '/ai_voice');
    fireEvent.click(await screen.findByTestId('tab-tasks'));
    expect(await screen.findByTestId('task-state-1')).toHaveTextContent('Done');
    // the voice's name, not its engine id
    await waitFor(() => expect(screen.getByTestId('task-voice-1')).toHaveTextContent('晓晓'));
    expect(screen.getByTestId('task-audio-1')).toHaveAttribute('src', '/files/1/tts?e=1&s=x');
    expect(screen.getByTestId('task-reason-2')).toHaveTextContent('Speech synthesis failed: boom');
    expect(screen.getByTestId('task-state-3')).toHaveTextContent('Synthesizing');
    expect(screen.queryByTestId('task-import-2')).toBeNull();
    expect(screen.queryByTestId('task-delete-3')).toBeNull();
    fireEvent.click(screen.getByTestId('task-import-1'));
    await waitFor(() => expect(bodiesOf(ctx.calls, '/ai.MerchantDub/importingBroadcast')).toEqual([{ id: 1, group_id: 0 }]));
    await waitFor(() => expect(ctx.feedback.success).toHaveBeenCalledWith('Imported into the voice-over library'));
    fireEvent.click(screen.getByTestId('task-delete-2'));
    fireEvent.click(await screen.findByTestId('task-delete-2-ok'));
    await waitFor(() => expect(bodiesOf(ctx.calls, '/ai.MerchantDub/deleteTask')).toEqual([{ id: 2 }]));
  });

  it('shows the clones, or the server saying cloning is not configured', async () => {
    renderAt(<AiVoicePage />, '/ai_voice');
    fireEvent.click(await screen.findByTestId('tab-clone'));
    expect(await screen.findByTestId('clone-state-4')).toHaveTextContent('Training');
    cloning = false;
    renderAt(<AiVoicePage />, '/ai_index');
    const tabs = await screen.findAllByTestId('tab-clone');
    fireEvent.click(tabs[tabs.length - 1]);
    expect(await screen.findByTestId('clone-unavailable')).toHaveTextContent('No voice cloning service is configured');
    cloning = true;
  });
});
