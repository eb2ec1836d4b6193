import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ExcavateWord } from '@/api/seo/types';
import { bodiesOf, renderAt, setupSeoPage, searchFor } from '../testing';
import KeyExcavatePage from '.';

const w = (word: string, depth: 1 | 2, parent = ''): ExcavateWord => ({ word, kind: depth === 1 ? 'long_tail' : 'related', depth, parent, heat: 500, trend: [5, 4, 3, 2, 1, 1, 1], change: -0.5, collected: false, covered: 0 });

const ctx = setupSeoPage((path) => {
  if (path === '/seo.merchant_keywords/excavate') return { rows: [w('hot pot shop', 1), w('hot pot base', 1), w('hot pot shop nearby', 2, 'hot pot shop'), w('hot pot shop ranking', 2, 'hot pot shop')] };
  return undefined;
  });

const check = (rowTestId: string) => fireEvent.click(within(screen.getByTestId(rowTestId)).getByRole('checkbox'));

describe('/key_excavate', { timeout: 60_000 }, () => {
  it('mines two levels as a tree and makes titles from the picked words', async () => {
  renderAt(<KeyExcavatePage />, '/key_excavate');
  searchFor('excavate-input', 'hot pot');
  // the second level hangs under its parent, opened
  expect(await screen.findByTestId('excavate-row-hot pot shop/hot pot shop nearby')).toBeInTheDocument();
  expect(screen.getByTestId('excavate-row-hot pot shop/hot pot shop ranking')).toBeInTheDocument();
  expect(screen.getByTestId('excavate-row-hot pot base')).toBeInTheDocument();
  expect(bodiesOf(ctx.calls, '/seo.merchant_keywords/excavate')).toEqual([{ platform: 'dy', word: 'hot pot' }]);
  expect(screen.getByTestId('excavate-make-titles')).toBeDisabled();

  check('excavate-row-hot pot base');
  check('excavate-row-hot pot shop/hot pot shop nearby');
  await waitFor(() => expect(screen.getByTestId('excavate-make-titles')).toHaveTextContent('Make titles from these (2)'));
  fireEvent.click(screen.getByTestId('excavate-make-titles'));
  const to = await screen.findByTestId('navigated');
  const url = new URL(to.textContent!, 'http://x');
  expect(url.pathname).toBe('/keywords-new_title');
  expect(url.searchParams.getAll('kw').sort()).toEqual(['hot pot base', 'hot pot shop nearby']);
  });
});
