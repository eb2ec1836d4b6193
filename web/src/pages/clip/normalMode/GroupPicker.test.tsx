import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { renderPage } from '@/test/utils';
import type { ShotGroup } from '@/api/materials/types';
import type { GroupRow } from '../rules';
import GroupPicker from './GroupPicker';

const GROUPS: ShotGroup[] = [
  { id: 11, name: 'Opening', kind: 'video', classify_id: 0, sort: 0, created_at: 0, count: 2, ready: 2 },
  { id: 12, name: 'Product', kind: 'video', classify_id: 0, sort: 0, created_at: 0, count: 3, ready: 2 },
  { id: 13, name: 'Ending', kind: 'video', classify_id: 0, sort: 0, created_at: 0, count: 2, ready: 2 },
];

beforeAll(async () => {
  await import('../i18n');
  await i18n.changeLanguage('en');
});
afterEach(() => vi.unstubAllGlobals());

let latest: GroupRow[] = [];
function Harness({ initial, advanced }: { initial: GroupRow[]; advanced?: boolean }) {
  const [rows, setRows] = useState(initial);
  latest = rows;
  return (
    <GroupPicker
      groups={GROUPS}
      value={rows}
      advanced={advanced}
      onChange={(next) => {
        latest = next;
        setRows(next);
      }}
    />
  );
}

const input = (testId: string) => {
  const el = screen.getByTestId(testId);
  return (el.tagName === 'INPUT' ? el : el.querySelector('input')!) as HTMLInputElement;
};

async function pickTransition(groupId: number, label: string) {
  fireEvent.mouseDown(within(screen.getByTestId(`group-transition-${groupId}`)).getByRole('combobox'));
  const options = await screen.findAllByTitle(label);
  fireEvent.click(options.at(-1)!);
}

describe('shot groups picker, advanced mode', { timeout: 60_000 }, () => {
  it('quick mix has one line per group and no shot fields', () => {
    renderPage(<Harness initial={[{ group_id: 11 }, { group_id: 12 }, { group_id: 13 }]} />, { route: '/normal_mode' });
    expect(screen.getByTestId('group-max-11')).toBeInTheDocument();
    expect(screen.queryByTestId('group-shot-11')).toBeNull();
    expect(screen.queryByTestId('group-text-11')).toBeNull();
    expect(screen.queryByTestId('group-transition-11')).toBeNull();
  });

  it('edits start, length, caption (with a character count) and the transition; the last shot has none', async () => {
    renderPage(<Harness advanced initial={[{ group_id: 11 }, { group_id: 12 }, { group_id: 13 }]} />, { route: '/normal_mode' });
    const shot = screen.getByTestId('group-shot-11');
    // length is the quick-mix max field, on the second line
    expect(within(shot).getByTestId('group-max-11')).toBeInTheDocument();
    expect(shot).toHaveTextContent('Length');

    fireEvent.change(input('group-start-11'), { target: { value: '1.5' } });
    fireEvent.change(input('group-max-11'), { target: { value: '3' } });
    const caption = input('group-text-11');
    fireEvent.change(caption, { target: { value: '新品上市' } });
    expect(caption.closest('.ant-input-affix-wrapper')!.querySelector('.ant-input-show-count-suffix')!.textContent).toBe('4 / 30');
    await pickTransition(11, 'Dissolve');
    await waitFor(() => expect(latest[0]).toMatchObject({ start_s: 1.5, max_s: 3, text: '新品上市', transition: 'dissolve', transition_ms: 500 }));
    expect(input('group-transition-ms-11')).toHaveValue('500');
    fireEvent.change(input('group-transition-ms-11'), { target: { value: '1200' } });
    await waitFor(() => expect(latest[0].transition_ms).toBe(1200));

    // a caption over 30 characters is cut at 30
    fireEvent.change(input('group-text-12'), { target: { value: '一二三四五六七八九十'.repeat(3) + '多' } });
    await waitFor(() => expect(input('group-text-12').value).toBe('一二三四五六七八九十'.repeat(3)));

    // the last shot cannot transition: disabled select and duration
    expect(within(screen.getByTestId('group-transition-13')).getByRole('combobox')).toBeDisabled();
    expect(input('group-transition-ms-13')).toBeDisabled();
    expect(within(screen.getByTestId('group-transition-12')).getByRole('combobox')).not.toBeDisabled();
    // no transition yet: its duration is disabled
    expect(input('group-transition-ms-12')).toBeDisabled();
    expect(screen.queryByTestId('group-problem-11')).toBeNull();
  });

  it('moving a shot with a transition to the end drops the transition', async () => {
    renderPage(
      <Harness
        advanced
        initial={[{ group_id: 11, transition: 'fade', transition_ms: 800, text: 'hi' }, { group_id: 12 }, { group_id: 13 }]}
      />,
      { route: '/normal_mode' },
    );
    expect(within(screen.getByTestId('group-transition-11')).getByTitle('Fade')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('group-down-11'));
    fireEvent.click(screen.getByTestId('group-down-11'));
    await waitFor(() => expect(latest.map((r) => r.group_id)).toEqual([12, 13, 11]));
    expect(latest[2]).toMatchObject({ group_id: 11, transition: null, text: 'hi' });
    expect(within(screen.getByTestId('group-transition-11')).getByRole('combobox')).toBeDisabled();
    expect(within(screen.getByTestId('group-transition-11')).getByTitle('None (cut)')).toBeInTheDocument();
  });

  it('flags a shot that breaks a rule (a stored transition on the last shot)', () => {
    renderPage(<Harness advanced initial={[{ group_id: 11 }, { group_id: 12 }, { group_id: 13, transition: 'fade' }]} />, { route: '/normal_mode' });
    expect(screen.getByTestId('group-problem-13')).toHaveTextContent('Shot 3: the last shot cannot have a transition');
  });
});
