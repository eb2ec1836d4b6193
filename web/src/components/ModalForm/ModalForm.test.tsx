import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Form, Input } from 'antd';
import { useEffect } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import ModalForm, { FullscreenModal } from '.';

let feedback: ReturnType<typeof spyFeedback>;
beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  feedback = spyFeedback();
});
afterEach(() => setFeedback(null));

const wrap = () => document.querySelector('[data-testid="dialog-wrap"]') as HTMLElement;

describe('dialog with a fullscreen toggle (SPEC §4 Dialog)', () => {
  it('toggles fullscreen and is back to normal on every open', async () => {
    const { rerender } = render(
      <FullscreenModal open title="Preview" width={500}>
        body
      </FullscreenModal>,
    );
    expect(await screen.findByText('body')).toBeInTheDocument();
    expect(wrap()).toHaveAttribute('data-fullscreen', 'false');
    fireEvent.click(screen.getByTestId('dialog-fullscreen'));
    expect(wrap()).toHaveAttribute('data-fullscreen', 'true');
    expect((document.querySelector('.ant-modal') as HTMLElement).style.width).toBe('100%');

    rerender(
      <FullscreenModal open={false} title="Preview" width={500}>
        body
      </FullscreenModal>,
    );
    rerender(
      <FullscreenModal open title="Preview" width={500}>
        body
      </FullscreenModal>,
    );
    await waitFor(() => expect(wrap()).toHaveAttribute('data-fullscreen', 'false'));
    expect((document.querySelector('.ant-modal') as HTMLElement).style.width).toBe('500px');
  });

  it("ModalForm is built on it and warns 'Form verification failed, please check input!'", async () => {
    const onSubmit = vi.fn(async () => undefined);
    render(
      <ModalForm open title="Edit" onCancel={() => undefined} onSubmit={onSubmit} testId="m">
        <Form.Item name="name" rules={[{ required: true, message: 'required!' }]}>
          <Input data-testid="m-name" />
        </Form.Item>
      </ModalForm>,
    );
    expect(await screen.findByTestId('m-fullscreen')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('m-ok'));
    await waitFor(() => expect(feedback.warning).toHaveBeenCalledWith('Form verification failed, please check input!'));
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.change(screen.getByTestId('m-name'), { target: { value: 'x' } });
    fireEvent.click(screen.getByTestId('m-ok'));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ name: 'x' }));
  });

  describe('closing a changed dialog asks first (Esc, X, mask, Cancel)', () => {
    const dialog = (onCancel: () => void) =>
      render(
        <ModalForm open title="New project" onCancel={onCancel} onSubmit={async () => undefined} testId="m">
          <Form.Item name="name">
            <Input data-testid="m-name" />
          </Form.Item>
        </ModalForm>,
      );
    const esc = () => fireEvent.keyDown(document.querySelector('.ant-modal-wrap, [data-testid="m-wrap"]') as HTMLElement, { key: 'Escape', keyCode: 27 });

    it('an untouched dialog closes at once', async () => {
      const onCancel = vi.fn();
      dialog(onCancel);
      await screen.findByTestId('m-name');
      esc();
      expect(onCancel).toHaveBeenCalledTimes(1);
      expect(feedback.confirm).not.toHaveBeenCalled();
    });

    it('an edit dialog whose editor normalizes its value once loaded closes at once (nobody changed it)', async () => {
      // Like the shot-group editor: it reports a normalized value after its options load.
      function Normalizing({ value, onChange }: { value?: string; onChange?: (v: string) => void }) {
        useEffect(() => {
          const t = setTimeout(() => onChange?.(`${value ?? ''}!`), 0);
          return () => clearTimeout(t);
          // eslint-disable-next-line react-hooks/exhaustive-deps
        }, []);
        return <span data-testid="m-normalized">{value}</span>;
      }
      const onCancel = vi.fn();
      render(
        <ModalForm open title="Edit project" initialValues={{ groups: 'a' }} onCancel={onCancel} onSubmit={async () => undefined} testId="m">
          <Form.Item name="groups">
            <Normalizing />
          </Form.Item>
        </ModalForm>,
      );
      await screen.findByText('a!');
      esc();
      expect(feedback.confirm).not.toHaveBeenCalled();
      expect(onCancel).toHaveBeenCalledTimes(1);
    });

    it('a half-filled dialog stays open until the discard is confirmed', async () => {
      const onCancel = vi.fn();
      dialog(onCancel);
      fireEvent.change(await screen.findByTestId('m-name'), { target: { value: 'Spring' } });
      esc();
      esc();
      fireEvent.click(document.querySelector('.ant-modal-close') as HTMLElement);
      expect(onCancel).not.toHaveBeenCalled();
      expect(feedback.confirm).toHaveBeenCalledTimes(1);
      expect(feedback.confirm).toHaveBeenCalledWith(expect.objectContaining({ title: 'Discard your changes?', okText: 'Discard', cancelText: 'Keep editing' }));
      // "keep editing": nothing is lost, and the next Esc asks again
      feedback.confirm.mock.calls[0][0].onCancel();
      expect(onCancel).not.toHaveBeenCalled();
      esc();
      expect(feedback.confirm).toHaveBeenCalledTimes(2);
      feedback.confirm.mock.calls[1][0].onOk();
      expect(onCancel).toHaveBeenCalledTimes(1);
    });
  });

  it("a page's own dialog with a form (FullscreenModal `form`) asks before its Cancel throws the input away", async () => {
    const onCancel = vi.fn();
    function Own() {
      const [form] = Form.useForm<{ words: string }>();
      return (
        <FullscreenModal open title="Generate" form={form} onCancel={onCancel} cancelText="Cancel" testId="own">
          <Form form={form}>
            <Form.Item name="words">
              <Input data-testid="own-words" />
            </Form.Item>
          </Form>
        </FullscreenModal>
      );
    }
    render(<Own />);
    fireEvent.change(await screen.findByTestId('own-words'), { target: { value: 'sun hat' } });
    fireEvent.click(screen.getByText('Cancel'));
    expect(onCancel).not.toHaveBeenCalled();
    expect(feedback.confirm).toHaveBeenCalledTimes(1);
    feedback.confirm.mock.calls[0][0].onOk();
    expect(onCancel).toHaveBeenCalledTimes(1);
  });
});
