/**
 * A compact audio player for table rows (loads nothing until played). `noDownload`: the browser's own
 * download is hidden where the page offers the file to download itself (a voice material: with its AI cue).
 */
export default function InlineAudio({ id, src, noDownload = false }: { id: number; src: string; noDownload?: boolean }) {
  return (
    <audio
      src={src}
      controls
      controlsList={noDownload ? 'nodownload' : undefined}
      preload="none"
      style={{ height: 32, width: 240, maxWidth: '100%' }}
      data-testid={`audio-${id}`}
    />
  );
}
