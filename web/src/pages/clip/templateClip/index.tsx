/**
 * /template_clip — clip templates (docs/api-clip.md "Templates"): built-in recipes by industry
 * and the merchant's own (saved from a quick-mix or advanced project), favourites, and "use template",
 * which makes a project from the merchant's shot groups — matched to the slots by name, or picked per slot.
 */
import { HeartFilled, HeartOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Form, Input, Popconfirm, Radio, Segmented, Select, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { clipKeys, fetchShotGroups } from '@/api/clip';
import { applyTemplate, deleteTemplate, fetchTemplateCategories, fetchTemplates, likeTemplate, type ClipTemplate } from '@/api/clip/aiclip';
import { useWrite } from '@/api/mutations';
import { FullscreenModal } from '@/components/ModalForm';
import PageHeader from '@/components/PageHeader';
import { feedback } from '@/utils/feedback';
import { useClipT } from '../i18n';
import '../clip.css';

const ALL = '__all';
const LIKED = '__liked';

function UseDialog({ template, onClose }: { template: ClipTemplate; onClose: () => void }) {
  const { t } = useClipT();
  const navigate = useNavigate();
  const [form] = Form.useForm<{ name: string; how: 'auto' | 'pick'; groups: (number | undefined)[] }>();
  const how = Form.useWatch('how', form) ?? 'auto';
  // the project made from the template shows on the projects pages
  const applying = useWrite(({ id, name, groups: picked }: { id: number; name: string; groups?: number[] }) => applyTemplate(id, name, picked), clipKeys.all);
  const [error, setError] = useState<string | null>(null);
  const groups = useQuery({ queryKey: ['clip', 'shotGroups'], queryFn: fetchShotGroups });
  const options = (groups.data?.rows ?? []).map((g) => ({ value: g.id, label: `${g.name} (${g.ready})` }));

  const submit = async () => {
    const v = await form.validateFields();
    setError(null);
    try {
      const picked = v.how === 'pick' ? (v.groups ?? []).filter((g): g is number => typeof g === 'number') : undefined;
      const p = await applying.mutateAsync({ id: template.id, name: v.name, groups: picked });
      feedback.success(t('templates.made', { name: p.name }));
      onClose();
      navigate(p.mode === 'senior' ? '/high_modeVisualization_clip' : '/normal_mode');
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <FullscreenModal
      open
      title={t('templates.useTitle', { name: template.name })}
      form={form}
      onCancel={onClose}
      onOk={submit}
      okText={t('templates.use')}
      okButtonProps={{ loading: applying.isPending, 'data-testid': 'template-use-ok' } as never}
      testId="template-use"
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ name: template.name, how: 'auto', groups: [] }}>
        <Form.Item name="name" label={t('templates.projectName')} rules={[{ required: true, whitespace: true, message: t('templates.nameRequired') }, { max: 50 }]}>
          <Input data-testid="template-use-name" maxLength={50} />
        </Form.Item>
        <Form.Item name="how">
          <Radio.Group data-testid="template-use-how">
            <Radio value="auto" data-testid="template-use-auto">
              {t('templates.auto')}
            </Radio>
            <Radio value="pick" data-testid="template-use-pick">
              {t('templates.pick')}
            </Radio>
          </Radio.Group>
        </Form.Item>
        {how === 'pick'
          ? template.slots.map((label, i) => (
              <Form.Item key={i} name={['groups', i]} label={t('templates.slotGroup', { n: i + 1, label })}>
                <Select allowClear options={options} placeholder={t('templates.slotPlaceholder')} data-testid={`template-slot-${i}`} />
              </Form.Item>
            ))
          : null}
        {error ? (
          <Typography.Text type="danger" data-testid="template-use-error">
            {error}
          </Typography.Text>
        ) : null}
      </Form>
    </FullscreenModal>
  );
}

export default function TemplateClipPage() {
  const { t } = useClipT();
  const [cat, setCat] = useState<string>(ALL);
  const [using, setUsing] = useState<ClipTemplate | null>(null);
  const cats = useQuery({ queryKey: ['clip', 'templateCategories'], queryFn: fetchTemplateCategories });
  const params = cat === ALL ? {} : cat === LIKED ? { liked: '1' as const } : { category: cat };
  const list = useQuery({ queryKey: ['clip', 'templates', cat], queryFn: () => fetchTemplates(params) });
  const liking = useWrite(({ id, like }: { id: number; like: boolean }) => likeTemplate(id, like), clipKeys.all);
  const removal = useWrite(deleteTemplate, clipKeys.all);

  const segments = [
    { value: ALL, label: t('templates.all') },
    ...(cats.data?.rows ?? []).map((c) => ({ value: c.key, label: `${c.name} (${c.count})` })),
    { value: LIKED, label: t('templates.liked') },
  ];

  const toggleLike = async (tpl: ClipTemplate) => {
    await liking.mutateAsync({ id: tpl.id, like: !tpl.liked });
  };
  const remove = async (tpl: ClipTemplate) => {
    await removal.mutateAsync(tpl.id);
    feedback.success(t('templates.deleted'));
  };

  const rows = list.data?.rows ?? [];
  return (
    <div data-testid="template-clip-page">
      <PageHeader title={t('templates.title')} subTitle={t('templates.subTitle')} />
      <Segmented data-testid="template-categories" value={cat} onChange={(v) => setCat(String(v))} options={segments} style={{ marginBottom: 16 }} />
      {rows.length === 0 && !list.isLoading ? <Empty description={t('templates.empty')} /> : null}
      <div className="cm-template-grid" style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))', gap: 16 }}>
        {rows.map((tpl) => (
          <Card
            key={tpl.id}
            size="small"
            data-testid={`template-${tpl.id}`}
            title={<span data-testid={`template-name-${tpl.id}`}>{tpl.name}</span>}
            extra={
              <Button
                type="text"
                aria-label={tpl.liked ? t('templates.unlike') : t('templates.like')}
                data-testid={`template-like-${tpl.id}`}
                data-liked={tpl.liked ? '1' : '0'}
                icon={tpl.liked ? <HeartFilled style={{ color: '#eb2f96' }} /> : <HeartOutlined />}
                onClick={() => void toggleLike(tpl)}
              />
            }
            actions={[
              <Button key="use" type="link" data-testid={`template-use-${tpl.id}`} onClick={() => setUsing(tpl)}>
                {t('templates.use')}
              </Button>,
              ...(tpl.builtin
                ? []
                : [
                    <Popconfirm key="del" title={t('templates.deleteConfirm', { name: tpl.name })} onConfirm={() => void remove(tpl)}>
                      <Button type="link" danger data-testid={`template-delete-${tpl.id}`}>
                        {t('templates.delete')}
                      </Button>
                    </Popconfirm>,
                  ]),
            ]}
          >
            <Space size={4} wrap style={{ marginBottom: 8 }}>
              <Tag color="blue">{tpl.category_name}</Tag>
              <Tag>{t(`templates.mode.${tpl.mode}`)}</Tag>
              <Tag color={tpl.builtin ? 'default' : 'green'}>{tpl.builtin ? t('templates.builtin') : t('templates.mine')}</Tag>
            </Space>
            <Typography.Paragraph type="secondary" style={{ marginBottom: 4 }} data-testid={`template-slots-${tpl.id}`}>
              {t('templates.slots')}: {tpl.slots.join(' → ')}
            </Typography.Paragraph>
            {tpl.recipe.title ? (
              <Typography.Paragraph type="secondary" style={{ marginBottom: 4 }}>
                {t('templates.titlePattern', { pattern: tpl.recipe.title.pattern })}
              </Typography.Paragraph>
            ) : null}
            {tpl.recipe.music ? (
              <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
                {t('templates.music', { mood: t(`moods.${tpl.recipe.music.mood}`, { defaultValue: tpl.recipe.music.mood }) })}
              </Typography.Paragraph>
            ) : null}
          </Card>
        ))}
      </div>
      {using ? <UseDialog template={using} onClose={() => setUsing(null)} /> : null}
    </div>
  );
}
