/**
 * "AI suggestions" in the reply dialog: three answers to the comment written by the operator's AI
 * service or the built-in writer (the tag says which); clicking one puts it in the reply box, where
 * the merchant can still edit it. Nothing is sent until they press OK.
 */
import { BulbOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { Button, Space, Tag } from 'antd';
import { suggestReplies } from '@/api/engagement';
import WriterTag from '@/components/WriterTag';
import { useEngagementT } from '../i18n';

export default function ReplySuggestions({ commentId, onPick }: { commentId: number; onPick: (text: string) => void }) {
  const { t } = useEngagementT();
  const ask = useMutation({ mutationFn: suggestReplies });
  return (
    <Space orientation="vertical" size={4} style={{ marginBottom: 12 }} data-testid="reply-suggestions">
      <Space>
        <Button size="small" icon={<BulbOutlined />} loading={ask.isPending} onClick={() => ask.mutate(commentId)} data-testid="reply-suggest">
          {t('comment.suggest')}
        </Button>
        {ask.data ? <WriterTag source={ask.data.source} testId="reply-suggest-source" /> : null}
      </Space>
      {ask.data ? (
        <Space wrap size={4}>
          {ask.data.rows.map((r, i) => (
            <Tag key={r} style={{ cursor: 'pointer' }} color="processing" onClick={() => onPick(r)} data-testid={`reply-suggestion-${i}`}>
              {r}
            </Tag>
          ))}
        </Space>
      ) : null}
    </Space>
  );
}
