import { Select, type SelectProps } from 'antd';
import { cleanWords } from '../rules';

/** Free keywords typed as tags (Enter, comma, space). */
export default function KeywordsSelect(props: Omit<SelectProps<string[]>, 'mode'>) {
  return (
    <Select<string[]>
      mode="tags"
      open={false}
      suffixIcon={null}
      tokenSeparators={[',', '，', ' ', '、']}
      {...props}
      onChange={(v, o) => props.onChange?.(cleanWords(v), o)}
    />
  );
}
