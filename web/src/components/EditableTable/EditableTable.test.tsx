import { act, fireEvent, render, screen } from '@testing-library/react';
import { createRef } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import EditableTable, { type EditableColumn, type EditableTableRef } from '.';

beforeAll(async () => {
  await i18n.changeLanguage('en');
});

interface Line {
  start?: number;
  text?: string;
}

const columns: EditableColumn<Line>[] = [
  { title: 'Start', dataIndex: 'start', editor: 'number' },
  { title: 'Text', dataIndex: 'text', required: true },
];

describe('EditableTable', () => {
  it('adds rows, edits cells in place and emits the rows', () => {
    const onChange = vi.fn();
    render(<EditableTable<Line> columns={columns} value={[{ start: 0, text: 'hi' }]} onChange={onChange} newRow={() => ({ start: 5 })} />);
    expect(screen.getByTestId('editable-cell-0-text')).toHaveValue('hi');
    fireEvent.click(screen.getByTestId('editable-add'));
    expect(onChange).toHaveBeenLastCalledWith([{ start: 0, text: 'hi' }, { start: 5 }]);
    fireEvent.change(screen.getByTestId('editable-cell-1-text'), { target: { value: 'there' } });
    expect(onChange).toHaveBeenLastCalledWith([{ start: 0, text: 'hi' }, { start: 5, text: 'there' }]);
  });

  it('removes a row after the confirmation', async () => {
    const onChange = vi.fn();
    render(<EditableTable<Line> columns={columns} value={[{ text: 'a' }, { text: 'b' }]} onChange={onChange} />);
    fireEvent.click(screen.getByTestId('editable-remove-0'));
    expect(await screen.findByText('Remove this row?')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('editable-remove-ok'));
    expect(onChange).toHaveBeenLastCalledWith([{ text: 'b' }]);
  });

  it('validate() marks required cells left empty', () => {
    const ref = createRef<EditableTableRef>();
    render(<EditableTable<Line> ref={ref} columns={columns} value={[{ start: 1 }]} />);
    let ok = true;
    act(() => {
      ok = ref.current!.validate();
    });
    expect(ok).toBe(false);
    expect(screen.getByTestId('editable-cell-0-text-error')).toHaveTextContent('Text is required');
    fireEvent.change(screen.getByTestId('editable-cell-0-text'), { target: { value: 'x' } });
    expect(screen.queryByTestId('editable-cell-0-text-error')).not.toBeInTheDocument();
    act(() => {
      ok = ref.current!.validate();
    });
    expect(ok).toBe(true);
  });

  it('stops adding at max', () => {
    render(<EditableTable<Line> columns={columns} value={[{ text: 'a' }]} max={1} />);
    expect(screen.queryByTestId('editable-add')).not.toBeInTheDocument();
  });
});
