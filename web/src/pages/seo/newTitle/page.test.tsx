import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { GenTitle } from '@/api/seo/types';
import { takeReleaseTitles } from '@/pages/matrix/sendManagement/handoff';
import { json, tickGroupOption } from '@/test/utils';
import { bodiesOf, inputOf, renderAt, setupSeoPage } from '../testing';
import NewTitlePage from '.';

const gen = (title: string, score: number, keywords: string[]): GenTitle => ({ title, style: 'numbers', style_name: 'Numbers', score, keywords });

let refuse = false;
const ctx = setupSeoPage((path) => {
  if (path === '/screen.merchant_seo_lexicon/getAllAiCategory') return { rows: [{ id: 3, name: 'Food', builtin: true, keywords: 12, created_at: 0 }], total: 1 };
  if (path === '/screen.merchant_seo_lexicon/styles') return { rows: [{ code: 'numbers', name: 'Numbers' }, { code: 'question', name: 'Question' }] };
  if (path === '/screen.merchant_seo_lexicon/ai_title') {
    if (refuse) return json({ code: 422, message: 'Give at least one keyword', data: { field: 'keywords' } }, 422);
    return {
      rows: [gen('3 hot pot spots in Chengdu', 0.9, ['hot pot', 'Chengdu']), gen('Why is this hot pot so good?', 60, ['hot pot'])],
      keywords: [{ word: 'hot pot', weight: 3 }, { word: 'Chengdu', weight: 1 }],
      topics: ['foodie'],
      provider: 'builtin',
      source: { kind: 'built_in', model: '', fallback_reason: '' },
    };
  }
  if (path === '/screen.merchant_seo_lexicon/ai_add') return { added: 1, skipped: 1 };
  if (path === '/screen.merchant_seo_lexicon/index') return { rows: [{ id: 8, title: 'Saved title', category_id: 3, category_name: 'Food', created_at: 0 }], total: 1 };
  if (path === '/screen.merchant_seo_lexicon/ai_edit') return { id: 8, title: 'Edited', category_id: 3, category_name: 'Food', created_at: 0 };
  return undefined;
  });
beforeEach(() => {
  refuse = false;
});

const pick = (title: string) => fireEvent.click(within(screen.getByTestId(`gen-row-${title}`)).getByRole('checkbox'));

describe('/keywords-new_title', { timeout: 60_000 }, () => {
  it('generates from the handed keywords: rows with score and keywords; saves the picked ones', async () => {
    renderAt(<NewTitlePage />, '/keywords-new_title?kw=hot+pot&kw=Chengdu');
    await tickGroupOption(await screen.findByTestId('gen-style-question'));
    fireEvent.change(inputOf('gen-text'), { target: { value: '  Beef tallow hot pot  ' } });
    fireEvent.click(screen.getByTestId('gen-submit'));
    expect(await screen.findByTestId('gen-row-3 hot pot spots in Chengdu')).toBeInTheDocument();
    expect(bodiesOf(ctx.calls, '/screen.merchant_seo_lexicon/ai_title')).toEqual([
      { keywords: ['hot pot', 'Chengdu'], text: 'Beef tallow hot pot', styles: ['question'], count: 20, max_chars: 50, lang: 'en' },
    ]);
    expect(screen.getByTestId('gen-row-3 hot pot spots in Chengdu')).toHaveTextContent('26/50');
    expect(screen.getByTestId('gen-score-3 hot pot spots in Chengdu')).toHaveTextContent('90%');
    expect(screen.getByTestId('gen-score-Why is this hot pot so good?')).toHaveTextContent('60%');
    expect(screen.getByTestId('gen-extracted-Chengdu')).toBeInTheDocument();
    expect(screen.getByTestId('gen-topics')).toHaveTextContent('#foodie');
    expect(screen.getByTestId('gen-provider')).toHaveTextContent('Built-in engine');
    expect(screen.getByTestId('gen-writer')).toHaveTextContent('Built-in');
    expect(screen.getByTestId('gen-save')).toBeDisabled();

    pick('3 hot pot spots in Chengdu');
    pick('Why is this hot pot so good?');
    fireEvent.click(screen.getByTestId('gen-save'));
    await waitFor(() => expect(bodiesOf(ctx.calls, '/screen.merchant_seo_lexicon/ai_add')).toEqual([{ titles: ['3 hot pot spots in Chengdu', 'Why is this hot pot so good?'] }]));
    await waitFor(() => expect(ctx.feedback.success).toHaveBeenCalledWith('1 saved, 1 duplicate(s) skipped'));
  });

  it('sends the picked titles to a new release task', async () => {
    renderAt(<NewTitlePage />, '/keywords-new_title?kw=hot+pot');
    fireEvent.click(await screen.findByTestId('gen-submit'));
    await screen.findByTestId('gen-row-Why is this hot pot so good?');
    pick('Why is this hot pot so good?');
    fireEvent.click(screen.getByTestId('gen-send'));
    expect(await screen.findByTestId('navigated')).toHaveTextContent('/send_management?new=1');
    expect(takeReleaseTitles()).toEqual(['Why is this hot pot so good?']);
    expect(takeReleaseTitles()).toEqual([]);
  });

  it('a 422 on the keywords lands on the keywords field', async () => {
    refuse = true;
    renderAt(<NewTitlePage />, '/keywords-new_title');
    fireEvent.click(await screen.findByTestId('gen-submit'));
    expect(await within(screen.getByTestId('gen-form')).findByText('Give at least one keyword')).toBeInTheDocument();
    expect(ctx.feedback.error).not.toHaveBeenCalled();
  });

  it('the title library lists the saved titles and edits one', async () => {
    renderAt(<NewTitlePage />, '/keywords-new_title');
    fireEvent.click(await screen.findByTestId('tab-library'));
    expect(await screen.findByTestId('title-text-8')).toHaveTextContent('Saved title');
    fireEvent.click(screen.getByTestId('title-edit-8'));
    await waitFor(() => expect(inputOf('title-form-title')).toHaveValue('Saved title'));
    fireEvent.change(inputOf('title-form-title'), { target: { value: ' Edited ' } });
    fireEvent.click(screen.getByTestId('title-form-ok'));
    await waitFor(() => expect(bodiesOf(ctx.calls, '/screen.merchant_seo_lexicon/ai_edit')).toEqual([{ id: 8, title: 'Edited', category_id: 3 }]));
  });
});
