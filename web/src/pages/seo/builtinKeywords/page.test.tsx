import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { bodiesOf, inputOf, renderAt, setupSeoPage } from '../testing';
import BuiltinKeywordsPage from '.';

const ctx = setupSeoPage((path, body) => {
  if (path === '/screen.merchant_seo_lexicon/getAllAiCategory')
    return { rows: [{ id: 3, name: 'Food', builtin: true, keywords: 1, created_at: 0 }, { id: 4, name: 'Beauty', builtin: false, keywords: 0, created_at: 0 }], total: 2 };
  if (path === '/screen.merchant_seo_lexicon/keywords') return { rows: [{ id: 30, category_id: 3, category_name: 'Food', word: 'hot pot', builtin: true, created_at: 0 }], total: 1 };
  if (path === '/screen.merchant_seo_lexicon/keywords_add') return { added: 2, skipped: 0 };
  if (path === '/screen.merchant_seo_lexicon/ai_category') return { id: body.id ?? 9, name: body.name, builtin: false, keywords: 0, created_at: 0 };
  return undefined;
  });

describe('/new_ai_title', { timeout: 60_000 }, () => {
  it('lists the categories; a category shows its keywords; adds keywords one a line', async () => {
  renderAt(<BuiltinKeywordsPage />, '/new_ai_title');
  expect(await screen.findByTestId('cat-pick-3')).toHaveTextContent('Food');
  expect(screen.getByTestId('seo-categories-row-3')).toHaveTextContent('Built-in');
  expect(screen.getByTestId('kw-pick-category')).toBeInTheDocument();
  fireEvent.click(screen.getByTestId('cat-pick-3'));
  expect(await screen.findByTestId('kw-word-30')).toHaveTextContent('hot pot');
  expect(bodiesOf(ctx.calls, '/screen.merchant_seo_lexicon/keywords')[0]).toMatchObject({ filterObj: { category_id: '3|=' } });

  fireEvent.click(screen.getByTestId('kw-add'));
  fireEvent.change(await screen.findByTestId('kw-words-text'), { target: { value: 'noodles \n dumplings\n' } });
  fireEvent.click(screen.getByTestId('kw-words-ok'));
  await waitFor(() => expect(bodiesOf(ctx.calls, '/screen.merchant_seo_lexicon/keywords_add')).toEqual([{ category_id: 3, words: ['noodles', 'dumplings'] }]));
  await waitFor(() => expect(ctx.feedback.success).toHaveBeenCalledWith('2 added, 0 duplicate(s) skipped'));
  });

  it('adds and renames a category, edits and deletes a keyword', async () => {
  renderAt(<BuiltinKeywordsPage />, '/new_ai_title');
  fireEvent.click(await screen.findByTestId('cat-add'));
  fireEvent.change(inputOf('cat-form-input'), { target: { value: ' Drinks ' } });
  fireEvent.click(screen.getByTestId('cat-form-ok'));
  await waitFor(() => expect(bodiesOf(ctx.calls, '/screen.merchant_seo_lexicon/ai_category')).toEqual([{ name: 'Drinks' }]));

  fireEvent.click(await screen.findByTestId('cat-rename-4'));
  await waitFor(() => expect(inputOf('cat-form-input')).toHaveValue('Beauty'));
  fireEvent.change(inputOf('cat-form-input'), { target: { value: 'Beauty care' } });
  fireEvent.click(screen.getByTestId('cat-form-ok'));
  await waitFor(() => expect(bodiesOf(ctx.calls, '/screen.merchant_seo_lexicon/ai_category')).toEqual([{ name: 'Drinks' }, { id: 4, name: 'Beauty care' }]));

  fireEvent.click(screen.getByTestId('cat-pick-3'));
  fireEvent.click(await screen.findByTestId('kw-edit-30'));
  await waitFor(() => expect(inputOf('kw-form-input')).toHaveValue('hot pot'));
  fireEvent.change(inputOf('kw-form-input'), { target: { value: 'spicy hot pot' } });
  fireEvent.click(screen.getByTestId('kw-form-ok'));
  await waitFor(() => expect(bodiesOf(ctx.calls, '/screen.merchant_seo_lexicon/keywords_edit')).toEqual([{ id: 30, word: 'spicy hot pot' }]));
  fireEvent.click(screen.getByTestId('kw-delete-30'));
  fireEvent.click(await screen.findByTestId('kw-delete-30-ok'));
  await waitFor(() => expect(bodiesOf(ctx.calls, '/screen.merchant_seo_lexicon/keywords_delete')).toEqual([{ id: 30 }]));
  });
});
