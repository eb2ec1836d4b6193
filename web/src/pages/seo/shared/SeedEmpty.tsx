import { Empty } from 'antd';

/** What the search and mining pages show before a seed word is given. */
export default function SeedEmpty({ text }: { text: string }) {
  return <Empty style={{ padding: 48 }} description={<span data-testid="seed-empty">{text}</span>} />;
}
