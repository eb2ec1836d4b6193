import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { spyFeedback } from '@/test/utils';
import { imageFile, installFakeXhr, uploaded, type FakeXhr } from '@/test/xhr';
import { setFeedback } from '@/utils/feedback';
import MultiImageUpload from './MultiImageUpload';

let feedback: ReturnType<typeof spyFeedback>;
let Xhr: typeof FakeXhr;

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  feedback = spyFeedback();
  Xhr = installFakeXhr();
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

function choose(...files: File[]) {
  const input = screen.getByTestId('images-upload-input') as HTMLInputElement;
  fireEvent.change(input, { target: { files } });
  return input;
}

describe('MultiImageUpload (SPEC §5)', () => {
  it("over the count limit: 'at most {limit} files, remove some and upload again', nothing is taken", () => {
    render(<MultiImageUpload action="/upload" crop={false} limit={3} value={['/f/1.png', '/f/2.png']} />);
    const input = choose(imageFile('a.png'), imageFile('b.png'));
    expect(feedback.warning).toHaveBeenCalledWith('at most 3 files, remove some and upload again');
    expect(input.value).toBe('');
    expect(Xhr.all).toHaveLength(0);
  });

  it('within the limit every file uploads and the list grows', async () => {
    const onChange = vi.fn();
    render(<MultiImageUpload action="/upload" crop={false} limit={3} value={['/f/1.png']} onChange={onChange} />);
    choose(imageFile('a.png'), imageFile('b.jpg', 'image/jpeg'));
    await waitFor(() => expect(Xhr.all).toHaveLength(2));
    expect(screen.getAllByTestId('images-upload-pending').map((e) => e.getAttribute('data-state'))).toEqual(['uploading', 'uploading']);
    act(() => Xhr.all[0].progress(1, 4));
    expect(screen.getAllByTestId('images-upload-pending')[0]).toHaveAttribute('data-percent', '25');
    act(() => Xhr.all[0].respond(uploaded('/f/a.png', 'a.png')));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(['/f/1.png', '/f/a.png']));
    act(() => Xhr.all[1].respond(uploaded('/f/b.jpg', 'b.jpg')));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(['/f/1.png', '/f/a.png', '/f/b.jpg']));
    expect(screen.queryByTestId('images-upload-pending')).not.toBeInTheDocument();
  });

  it('hands each upload\'s whole answer to onUploaded (e.g. the stored file\'s id)', async () => {
    const onUploaded = vi.fn();
    render(<MultiImageUpload action="/upload" crop={false} data={{ type: 'image' }} onUploaded={onUploaded} />);
    choose(imageFile('a.png'));
    await waitFor(() => expect(Xhr.all).toHaveLength(1));
    expect(Xhr.all[0].body!.get('type')).toBe('image');
    act(() => Xhr.all[0].respond({ code: 200, message: 'ok', data: { id: 41, fileName: 'a.png', src: '/files/41/original' } }));
    await waitFor(() => expect(onUploaded).toHaveBeenCalledWith({ id: 41, fileName: 'a.png', src: '/files/41/original' }));
  });

  it('checks type and size per file', () => {
    render(<MultiImageUpload action="/upload" crop={false} maxSize={1} />);
    choose(imageFile('a.txt', 'text/plain'));
    expect(feedback.warning).toHaveBeenLastCalledWith('upload file warning: the selected file is not an image');
    choose(imageFile('b.png', 'image/png', 2 * 1024 * 1024));
    expect(feedback.warning).toHaveBeenLastCalledWith('upload file size cannot exceed 1MB!');
    expect(Xhr.all).toHaveLength(0);
  });

  it("removing asks 'remove {name}?' and removes only after the confirmation", () => {
    const onChange = vi.fn();
    render(<MultiImageUpload action="/upload" value={['/f/cat.png', '/f/dog.png']} onChange={onChange} />);
    fireEvent.click(screen.getByTestId('images-upload-delete-0'));
    expect(feedback.confirm).toHaveBeenCalledWith(expect.objectContaining({ title: 'remove cat.png?' }));
    expect(onChange).not.toHaveBeenCalled();
    act(() => feedback.confirm.mock.calls[0][0].onOk());
    expect(onChange).toHaveBeenCalledWith(['/f/dog.png']);
    expect(screen.queryByTestId('images-upload-item-1')).not.toBeInTheDocument();
  });

  it("a failed upload is cleared with 'upload file failed'", async () => {
    const onChange = vi.fn();
    render(<MultiImageUpload action="/upload" crop={false} onChange={onChange} />);
    choose(imageFile('a.png'));
    await waitFor(() => expect(Xhr.all).toHaveLength(1));
    act(() => Xhr.all[0].respond({ code: 0, message: '' }));
    await waitFor(() => expect(feedback.notifyError).toHaveBeenCalledWith('upload file failed', 'unknown error'));
    expect(screen.queryByTestId('images-upload-pending')).not.toBeInTheDocument();
    expect(onChange).not.toHaveBeenCalled();
  });

  it('hides the add box at the limit', () => {
    render(<MultiImageUpload action="/upload" limit={2} value={['/f/1.png', '/f/2.png']} />);
    expect(screen.queryByRole('button', { name: 'Upload' })).not.toBeInTheDocument();
  });
});
