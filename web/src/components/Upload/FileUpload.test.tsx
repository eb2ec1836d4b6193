import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { spyFeedback } from '@/test/utils';
import { imageFile, installFakeXhr, uploaded, type FakeXhr } from '@/test/xhr';
import { setFeedback } from '@/utils/feedback';
import FileUpload from './FileUpload';

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

const states = () => screen.queryAllByTestId(/^file-upload-item-\d+$/).map((e) => e.getAttribute('data-state'));

describe('FileUpload (SPEC §4 upload queue, §5)', () => {
  it('checks the size only: any type is taken, an oversize file is not', () => {
    render(<FileUpload action="/upload" maxSize={1} />);
    fireEvent.change(screen.getByTestId('file-upload-input'), {
      target: { files: [imageFile('notes.txt', 'text/plain'), imageFile('movie.mp4', 'video/mp4', 2 * 1024 * 1024)] },
    });
    expect(feedback.warning).toHaveBeenCalledTimes(1);
    expect(feedback.warning).toHaveBeenCalledWith('upload file size cannot exceed 1MB!');
    expect(states()).toEqual(['uploading']);
  });

  it('defaults to 10 MB', () => {
    render(<FileUpload action="/upload" />);
    fireEvent.change(screen.getByTestId('file-upload-input'), { target: { files: [imageFile('a.zip', 'application/zip', 10 * 1024 * 1024 + 1)] } });
    expect(feedback.warning).toHaveBeenCalledWith('upload file size cannot exceed 10MB!');
  });

  it('queue: waiting -> uploading -> successful / failed, and a failed one can be retried', async () => {
    const onChange = vi.fn();
    render(<FileUpload action="/upload" onChange={onChange} />);
    fireEvent.change(screen.getByTestId('file-upload-input'), { target: { files: [imageFile('a.mp4', 'video/mp4'), imageFile('b.mp4', 'video/mp4')] } });
    await waitFor(() => expect(states()).toEqual(['uploading', 'waiting']));
    expect(screen.getByTestId('file-upload-status-1')).toHaveTextContent('Waiting');

    act(() => Xhr.all[0].respond({ code: 500, message: 'storage offline' }));
    await waitFor(() => expect(states()).toEqual(['failed', 'uploading']));
    expect(feedback.notifyError).toHaveBeenCalledWith('upload file failed', 'storage offline');
    expect(screen.getByTestId('file-upload-status-0')).toHaveTextContent('Failed');

    act(() => Xhr.all[1].respond(uploaded('/f/b.mp4', 'b.mp4')));
    await waitFor(() => expect(states()).toEqual(['failed', 'successful']));
    expect(screen.getByTestId('file-upload-status-1')).toHaveTextContent('Successful');
    expect(onChange).toHaveBeenLastCalledWith([{ fileName: 'b.mp4', src: '/f/b.mp4' }]);

    fireEvent.click(screen.getByTestId('file-upload-retry-0'));
    await waitFor(() => expect(Xhr.all).toHaveLength(3));
    expect(states()).toEqual(['uploading', 'successful']);
    act(() => Xhr.all[2].respond(uploaded('/f/a.mp4', 'a.mp4')));
    await waitFor(() => expect(states()).toEqual(['successful', 'successful']));
    expect(onChange).toHaveBeenLastCalledWith([
      { fileName: 'a.mp4', src: '/f/a.mp4' },
      { fileName: 'b.mp4', src: '/f/b.mp4' },
    ]);
  });
  it('a page\'s own uploader replaces the multipart POST, keeping the queue, progress and retry', async () => {
    const onUploaded = vi.fn();
    let attempt = 0;
    const progressOf: Array<(p: number) => void> = [];
    const answers: Array<{ resolve: (v: { fileName: string; src: string }) => void; reject: (e: Error) => void }> = [];
    const uploader = vi.fn(
      (_file: File, onProgress: (p: number) => void) =>
        new Promise<{ fileName: string; src: string }>((resolve, reject) => {
          attempt += 1;
          progressOf.push(onProgress);
          answers.push({ resolve, reject });
        }),
    );
    render(<FileUpload uploader={uploader} maxSize={300} onUploaded={onUploaded} />);
    fireEvent.change(screen.getByTestId('file-upload-input'), { target: { files: [imageFile('big.mp4', 'video/mp4', 200 * 1024 * 1024)] } });
    await waitFor(() => expect(uploader).toHaveBeenCalledTimes(1));
    expect(uploader.mock.calls[0][0].name).toBe('big.mp4');
    act(() => progressOf[0](42));
    await waitFor(() => expect(screen.getByText('42%')).toBeInTheDocument());
    act(() => answers[0].reject(new Error('The upload is not complete: 2 chunks missing')));
    await waitFor(() => expect(states()).toEqual(['failed']));
    expect(feedback.notifyError).toHaveBeenCalledWith('upload file failed', 'The upload is not complete: 2 chunks missing');
    fireEvent.click(screen.getByTestId('file-upload-retry-0'));
    await waitFor(() => expect(attempt).toBe(2));
    act(() => answers[1].resolve({ fileName: 'big.mp4', src: '/files/9/original' }));
    await waitFor(() => expect(states()).toEqual(['successful']));
    expect(onUploaded).toHaveBeenCalledWith({ fileName: 'big.mp4', src: '/files/9/original' });
    expect(Xhr.all).toHaveLength(0);
  });
});
