import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { bodiesOf, renderAt, setupSeoPage } from '../testing';
import KeywordsNumPage from '.';

const ctx = setupSeoPage((path) => {
  if (path === '/seo.merchant_keywords/list')
    return {
      rows: [
        { id: 1, word: 'hot pot', platform: 'dy', heat: 4200, covered: 3, created_at: Date.UTC(2026, 0, 2) },
        { id: 2, word: 'noodles', platform: 'ks', heat: 90, covered: 0, created_at: Date.UTC(2026, 0, 3) },
      ],
      total: 2,
    };
  return undefined;
  });

describe('/keywords_num', { timeout: 60_000 }, () => {
  it('lists the collected words with platform, heat and coverage; deletes one and the picked ones; makes titles', async () => {
  renderAt(<KeywordsNumPage />, '/keywords_num');
  expect(await screen.findByTestId('collected-word-1')).toHaveTextContent('hot pot');
  expect(screen.getByTestId('collected-row-2')).toHaveTextContent('Kuaishou');
  expect(screen.getByTestId('collected-row-1')).toHaveTextContent('4,200');
  expect(screen.getByTestId('collected-covered-1')).toHaveTextContent('In 3 of your titles');
  expect(screen.getByTestId('collected-covered-2')).toHaveTextContent('Not covered yet');
  expect(screen.getByTestId('collected-filter-open')).toBeInTheDocument();

  fireEvent.click(screen.getByTestId('collected-delete-2'));
  fireEvent.click(await screen.findByTestId('collected-delete-2-ok'));
  await waitFor(() => expect(bodiesOf(ctx.calls, '/seo.merchant_keywords/delete')).toEqual([{ id: 2 }]));
  await waitFor(() => expect(ctx.feedback.success).toHaveBeenCalledWith('Deleted successfully'));

  fireEvent.click(within(screen.getByTestId('collected-row-1')).getByRole('checkbox'));
  fireEvent.click(within(screen.getByTestId('collected-row-2')).getByRole('checkbox'));
  fireEvent.click(screen.getByTestId('collected-delete-many'));
  fireEvent.click(await screen.findByTestId('collected-delete-many-ok'));
  await waitFor(() => expect(bodiesOf(ctx.calls, '/seo.merchant_keywords/delete')).toEqual([{ id: 2 }, { ids: [1, 2] }]));
  });

  it('makes titles from the picked words', async () => {
  renderAt(<KeywordsNumPage />, '/keywords_num');
  fireEvent.click(within(await screen.findByTestId('collected-row-1')).getByRole('checkbox'));
  fireEvent.click(screen.getByTestId('collected-make-titles'));
  expect(await screen.findByTestId('navigated')).toHaveTextContent('/keywords-new_title?kw=hot+pot');
  });
});
