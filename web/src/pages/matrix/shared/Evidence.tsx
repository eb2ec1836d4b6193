/**
 * What a creator console's page showed when a browser step failed on a release item (Xiaohongshu,
 * WeChat Channels, the shop): the step's name, the page's address, its screenshot and a link to its
 * HTML (served as plain text).
 */
import { CameraOutlined } from '@ant-design/icons';
import { Button, Descriptions, Image, Modal } from 'antd';
import { useState } from 'react';
import type { Item } from '@/api/matrix/types';
import { useMatrixT } from '../i18n';

type Evidence = NonNullable<Item['evidence']>;

/** The step's name in the reader's language (its code when the console gains a step we do not name). */
export function useStepName() {
  const { t } = useMatrixT();
  return (step: string) => t(`evidence.steps.${step}`, { defaultValue: step });
}

export function EvidenceButton({ itemId, evidence }: { itemId: number; evidence: Evidence }) {
  const { t } = useMatrixT();
  const stepName = useStepName()(evidence.step);
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="link" size="small" icon={<CameraOutlined />} onClick={() => setOpen(true)} data-testid={`item-evidence-${itemId}`}>
        {t('item.evidence')}
      </Button>
      <Modal
        open={open}
        title={t('evidence.title', { step: stepName })}
        onCancel={() => setOpen(false)}
        footer={null}
        width={880}
        destroyOnHidden
        data-testid={`item-evidence-dialog-${itemId}`}
      >
        <Descriptions size="small" column={1} style={{ marginBottom: 12 }}>
          <Descriptions.Item label={t('evidence.step')}>
            <span data-testid={`item-evidence-step-${itemId}`} data-step={evidence.step}>
              {stepName}
            </span>
          </Descriptions.Item>
          <Descriptions.Item label={t('evidence.page')}>
            <span style={{ wordBreak: 'break-all' }}>{evidence.url}</span>
          </Descriptions.Item>
        </Descriptions>
        <Image src={evidence.screenshot} alt={t('evidence.alt', { step: stepName })} data-testid={`item-evidence-shot-${itemId}`} />
        <div style={{ marginTop: 12 }}>
          <a href={evidence.html} target="_blank" rel="noreferrer" data-testid={`item-evidence-html-${itemId}`}>
            {t('evidence.html')}
          </a>
        </div>
      </Modal>
    </>
  );
}
