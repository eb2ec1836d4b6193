/** A compact audio player for table rows (loads nothing until played). */
export default function InlineAudio({ id, src }: { id: number; src: string }) {
  return <audio src={src} controls preload="none" style={{ height: 32, width: 240, maxWidth: '100%' }} data-testid={`audio-${id}`} />;
}
