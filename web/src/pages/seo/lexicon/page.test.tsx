import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { bodiesOf, inputOf, renderAt, setupSeoPage } from '../testing';
import LexiconPage from '.';

const ctx = setupSeoPage((path, body) => {
  if (path === '/seo.merchant_seo_lexicon/profile') return { brand: 'Old Dock', product: 'hot pot', region: 'Chengdu', description: 'Since 1990', category_id: 3, updated_at: Date.UTC(2026, 0, 1) };
  if (path === '/screen.merchant_seo_lexicon/getAllAiCategory') return { rows: [{ id: 3, name: 'Food', builtin: true, keywords: 1, created_at: 0 }], total: 1 };
  if (path === '/screen.merchant_seo_lexicon/edit') return { ...body, updated_at: Date.UTC(2026, 0, 2) };
  if (path === '/seo.merchant_seo_lexicon/index') return { rows: [{ id: 10 + ['brand', 'banned'].indexOf(String(body.kind)), kind: body.kind, word: `${body.kind}-word`, created_at: 0 }], total: 1 };
  if (path === '/seo.merchant_seo_lexicon/add') return { added: 2, skipped: 1 };
  return undefined;
  });

describe('/keysword_setting', { timeout: 60_000 }, () => {
  it('loads and saves the SEO profile (trimmed)', async () => {
  renderAt(<LexiconPage />, '/keysword_setting');
  await waitFor(() => expect(inputOf('profile-brand')).toHaveValue('Old Dock'));
  fireEvent.change(inputOf('profile-region'), { target: { value: ' Chongqing ' } });
  fireEvent.click(screen.getByTestId('profile-save'));
  await waitFor(() =>
    expect(bodiesOf(ctx.calls, '/screen.merchant_seo_lexicon/edit')).toEqual([{ brand: 'Old Dock', product: 'hot pot', region: 'Chongqing', description: 'Since 1990', category_id: 3 }]),
  );
  await waitFor(() => expect(ctx.feedback.success).toHaveBeenCalledWith('Saved successfully'));
  });

  it('one tab per lexicon; bulk add splits the lines, trims them and drops blanks and repeats', async () => {
  renderAt(<LexiconPage />, '/keysword_setting');
  expect(await screen.findByTestId('lex-word-10')).toHaveTextContent('brand-word');
  expect(bodiesOf(ctx.calls, '/seo.merchant_seo_lexicon/index')[0]).toMatchObject({ kind: 'brand' });
  fireEvent.click(screen.getByTestId('lex-tab-banned'));
  expect(await screen.findByTestId('lex-word-11')).toHaveTextContent('banned-word');

  fireEvent.click(screen.getByTestId('lex-add-banned'));
  const text = await screen.findByTestId('lex-words-banned-text');
  fireEvent.change(text, { target: { value: ' best \n\nNo. 1\r\nbest\n   \n' } });
  await waitFor(() => expect(screen.getByTestId('lex-words-banned-count')).toHaveTextContent('2 word(s)'));
  fireEvent.click(screen.getByTestId('lex-words-banned-ok'));
  await waitFor(() => expect(bodiesOf(ctx.calls, '/seo.merchant_seo_lexicon/add')).toEqual([{ kind: 'banned', words: ['best', 'No. 1'] }]));
  await waitFor(() => expect(ctx.feedback.success).toHaveBeenCalledWith('2 added, 1 duplicate(s) skipped'));
  });

  it('names a word over 20 characters and sends nothing; deletes a word', async () => {
  renderAt(<LexiconPage />, '/keysword_setting');
  fireEvent.click(await screen.findByTestId('lex-add-brand'));
  fireEvent.change(await screen.findByTestId('lex-words-brand-text'), { target: { value: `ok\n${'x'.repeat(21)}` } });
  fireEvent.click(screen.getByTestId('lex-words-brand-ok'));
  expect(await screen.findByText(`Each word is at most 20 characters: ${'x'.repeat(21)}`)).toBeInTheDocument();
  expect(bodiesOf(ctx.calls, '/seo.merchant_seo_lexicon/add')).toEqual([]);
  fireEvent.click(screen.getByTestId('lex-words-brand-wrap').querySelector('.ant-modal-close')!);
  fireEvent.click(await screen.findByTestId('lex-delete-10'));
  fireEvent.click(await screen.findByTestId('lex-delete-10-ok'));
  await waitFor(() => expect(bodiesOf(ctx.calls, '/seo.merchant_seo_lexicon/delete')).toEqual([{ id: 10 }]));
  });
});
