/**
 * System → Merchants → More → Banned words: the words the operator bans for one merchant. The copy
 * precheck blocks a release task, auto-reply, NFC title, one-touch title or voice-over holding one,
 * like a rule of the advertising law (`services::system::banned_words`).
 */
import { Button, Empty, Input, Modal, Space, Spin, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addMerchantBannedWords, deleteMerchantBannedWords, merchantBannedWords, systemKeys } from '@/api/system';
import { useWrite } from '@/api/mutations';
import type { MerchantRow } from '@/api/system/types';
import { feedback } from '@/utils/feedback';

/** Words typed one per line or separated by commas. */
export function splitWords(raw: string): string[] {
  return raw
    .split(/[\n,，、]/)
    .map((w) => w.trim())
    .filter(Boolean);
}

export default function BannedWordsModal({ row, onClose }: { row: MerchantRow | null; onClose: () => void }) {
  const { t } = useTranslation('system');
  const [raw, setRaw] = useState('');
  const id = row?.id;
  const key = systemKeys.bannedWords(id);
  const list = useQuery({ queryKey: key, queryFn: () => merchantBannedWords(id!), enabled: id !== undefined });
  const add = useWrite((words: string[]) => addMerchantBannedWords(id!, words), key);
  const remove = useWrite((wordId: number) => deleteMerchantBannedWords(id!, [wordId]), key);
  const rows = list.data?.rows ?? [];
  const submit = async () => {
    const words = splitWords(raw);
    if (!words.length) return;
    try {
      const res = await add.mutateAsync(words);
      feedback.success(t('merchant.bannedAdded', { count: res.added }));
      setRaw('');
    } catch {
      /* toasted */
    }
  };
  return (
    <Modal
      open={row !== null}
      title={t('merchant.bannedWordsOf', { name: row?.name ?? '' })}
      onCancel={() => {
        setRaw('');
        onClose();
      }}
      footer={null}
      destroyOnHidden
      data-testid="merchant-banned-modal"
    >
      <Typography.Paragraph type="secondary">{t('merchant.bannedHelp')}</Typography.Paragraph>
      <Space.Compact style={{ width: '100%', marginBottom: 12 }}>
        <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} value={raw} onChange={(e) => setRaw(e.target.value)} placeholder={t('merchant.bannedPlaceholder')} data-testid="merchant-banned-input" />
        <Button type="primary" loading={add.isPending} onClick={() => void submit()} data-testid="merchant-banned-add">
          {t('merchant.bannedAdd')}
        </Button>
      </Space.Compact>
      <Spin spinning={list.isFetching}>
        {rows.length ? (
          <div data-testid="merchant-banned-list">
            {rows.map((w) => (
              <Tag key={w.id} closable onClose={(e) => { e.preventDefault(); void remove.mutateAsync(w.id).catch(() => undefined); }} data-testid={`merchant-banned-${w.id}`} style={{ marginBottom: 6 }}>
                {w.word}
              </Tag>
            ))}
          </div>
        ) : (
          <Empty description={t('merchant.bannedNone')} />
        )}
      </Spin>
    </Modal>
  );
}
