/**
 * The project list of /normal_mode (quick mix) and /high_modeVisualization_clip
 * (advanced mode), docs/api-clip.md: the list with capacity and variant counts, create / edit in a
 * dialog, preview the plan, generate N (points confirmed), continue adding, render all remaining, copy,
 * enable / disable, delete. Both modes are this component; `mode` picks the list, save and delete calls
 * (everything else is the quick-mix calls, which take either mode), the title and the page's test id.
 */
import {
  AppstoreAddOutlined,
  CopyOutlined,
  DeleteOutlined,
  DownOutlined,
  EditOutlined,
  EyeOutlined,
  FolderOpenOutlined,
  PlayCircleOutlined,
  PlaySquareOutlined,
  PlusOutlined,
  PlusSquareOutlined,
  ThunderboltFilled,
  ThunderboltOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { Button, Dropdown, Input, Popconfirm, Progress, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { clipKeys, copyProject, projectCalls, setProjectStatus } from '@/api/clip';
import { saveTemplate } from '@/api/clip/aiclip';
import type { Plan, Project, ProjectMode } from '@/api/clip/types';
import { useWrite } from '@/api/mutations';
import DataTable, { type DataTableColumn, type DataTableRef } from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import { projectFilterFields } from '../filters';
import { formatCount } from '../format';
import { useClipT } from '../i18n';
import PlanModal from '../normalMode/PlanModal';
import ProjectForm from '../normalMode/ProjectForm';
import { hasBurnedText, maxBatch, RECOMMENDED_POOL } from '../rules';
import GenerateDialog, { type GenerateMode, type GenerateTarget } from './GenerateDialog';
import '../clip.css';

/** While a project still renders, its counts are reloaded this often. */
const REFRESH_MS = 3000;

/** What differs between the two pages. */
const PAGES: Record<ProjectMode, { testId: string; title: string; subtitle: string; add: string }> = {
  normal: { testId: 'normal-mode-page', title: 'common:menu.normalMode', subtitle: 'project.subtitle', add: 'project.add' },
  senior: { testId: 'high-mode-page', title: 'common:menu.highMode', subtitle: 'project.seniorSubtitle', add: 'project.addSenior' },
};

export interface ProjectsPageProps {
  mode: ProjectMode;
}

export default function ProjectsPage({ mode }: ProjectsPageProps) {
  const { t } = useClipT();
  const page = PAGES[mode];
  const calls = projectCalls[mode];
  const navigate = useNavigate();
  const table = useRef<DataTableRef>(null);
  const [name, setName] = useState('');
  const [search, setSearch] = useSearchParams();
  // `?new=1` (normalMode/handoff.ts MIX_FORM_PATH) opens the new-project form, e.g. with a hot-list song
  const [editing, setEditing] = useState<Project | null | undefined>(() => (search.get('new') === '1' ? null : undefined));
  useEffect(() => {
    if (search.has('new')) setSearch((s) => (s.delete('new'), s), { replace: true });
  }, [search, setSearch]);
  const [planFor, setPlanFor] = useState<Project | null>(null);
  const [generate, setGenerate] = useState<{ target: GenerateTarget; mode: GenerateMode } | null>(null);
  const [loaded, setLoaded] = useState({ n: 0, rendering: false });

  // polling while a project renders: nothing was written, its counts are read again
  const refresh = useCallback(() => table.current?.refresh(), []);
  const statusWrite = useWrite(({ id, on }: { id: number; on: boolean }) => setProjectStatus(id, on ? 1 : 0), clipKeys.all);
  const copying = useWrite(copyProject, clipKeys.all);
  const removal = useWrite((id: number) => calls.remove(id), clipKeys.all);
  // a saved template shows on /template_clip
  const templating = useWrite(saveTemplate, clipKeys.all);

  useEffect(() => {
    if (!loaded.rendering) return;
    const timer = setTimeout(refresh, REFRESH_MS);
    return () => clearTimeout(timer);
  }, [loaded, refresh]);

  const targetOf = (p: Project, count?: number): GenerateTarget => ({
    id: p.id,
    name: p.name,
    output_count: count ?? p.config.output_count,
    capacity: p.capacity,
    short: p.short,
    voice_ms: p.voice_ms,
  });

  const onGenerated = (plan: Plan) => {
    setGenerate(null);
    const count = plan.variant_ids?.length ?? plan.sequences.length;
    feedback.success(t('generate.started', { count, points: plan.points }));
  };
  const openLibrary = (p: Project) => navigate(`/piece_rep?project_id=${p.id}`);

  const columns = useMemo<DataTableColumn<Project>[]>(
    () => [
      {
        title: t('columns.name'),
        dataIndex: 'name',
        sorter: true,
        render: (value: string, row) => (
          <Space size={4}>
            <Typography.Text strong data-testid={`project-name-${row.id}`}>
              {value}
            </Typography.Text>
            {row.small_pool ? (
              <Tooltip title={t('groups.smallPool', { min: RECOMMENDED_POOL, count: row.pool })}>
                <WarningOutlined style={{ color: '#faad14' }} data-testid={`project-small-pool-${row.id}`} />
              </Tooltip>
            ) : null}
            {hasBurnedText(row.config) ? <SlotSpeed row={row} /> : null}
          </Space>
        ),
      },
      {
        title: t('columns.groups'),
        key: 'groups',
        render: (_, row) => (
          <Space size={[0, 4]} wrap data-testid={`project-groups-${row.id}`}>
            {row.groups.map((g, i) => (
              <Tag key={g.id} color={g.ready ? undefined : 'red'}>
                {i + 1}. {g.name} · {g.ready}
              </Tag>
            ))}
          </Space>
        ),
      },
      {
        title: t('columns.capacity'),
        dataIndex: 'capacity',
        width: 100,
        render: (n: number, row) => (
          <Tooltip title={t('columns.capacityTip', { pool: row.pool })}>
            <span data-testid={`project-capacity-${row.id}`}>{formatCount(n)}</span>
          </Tooltip>
        ),
      },
      {
        title: t('columns.variants'),
        key: 'variants',
        width: 150,
        render: (_, row) => (
          <Space orientation="vertical" size={2}>
            <Space
              size={0}
              className="cm-clickable"
              role="link"
              title={t('project.openLibrary')}
              onClick={() => openLibrary(row)}
              data-testid={`project-variants-${row.id}`}
            >
              <Tooltip title={t('state.success')}>
                <Tag color="success" data-testid={`project-success-${row.id}`}>
                  {row.variants.success}
                </Tag>
              </Tooltip>
              <Tooltip title={t('state.processing')}>
                <Tag color="processing" data-testid={`project-processing-${row.id}`}>
                  {row.variants.processing}
                </Tag>
              </Tooltip>
              <Tooltip title={t('state.failed')}>
                <Tag color={row.variants.failed ? 'error' : 'default'} data-testid={`project-failed-${row.id}`}>
                  {row.variants.failed}
                </Tag>
              </Tooltip>
            </Space>
            {row.progress !== null && row.progress !== undefined ? (
              <Tooltip title={t('project.batchProgress')}>
                <Progress percent={row.progress} size="small" status="active" data-testid={`project-progress-${row.id}`} />
              </Tooltip>
            ) : null}
          </Space>
        ),
      },
      {
        title: t('common:status'),
        dataIndex: 'status',
        width: 100,
        sorter: true,
        render: (status: number, row) => (
          <Switch
            size="small"
            checked={status === 1}
            checkedChildren={t('common:enabled')}
            unCheckedChildren={t('common:disabled')}
            data-testid={`project-status-${row.id}`}
            onChange={async (on) => {
              try {
                await statusWrite.mutateAsync({ id: row.id, on });
                feedback.success(on ? t('project.enabled') : t('project.disabled'));
              } catch {
                /* toasted */
              }
            }}
          />
        ),
      },
      { title: t('common:createdAt'), dataIndex: 'created_at', width: 160, sorter: true, render: formatTime },
      { title: t('columns.updatedAt'), dataIndex: 'updated_at', width: 170, sorter: true, render: formatTime, hide: true },
      {
        title: t('common:actions'),
        key: 'actions',
        fixed: 'right',
        width: 270,
        render: (_, row) => {
          const off = row.status !== 1;
          const full = row.capacity <= 0;
          const why = off ? t('project.disabledTip') : full ? t('project.fullTip') : undefined;
          return (
            <Space size={0} wrap>
              <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing(row)} data-testid={`project-edit-${row.id}`}>
                {t('common:edit')}
              </Button>
              <Button type="link" size="small" icon={<EyeOutlined />} onClick={() => setPlanFor(row)} disabled={full} data-testid={`project-preview-${row.id}`}>
                {t('project.preview')}
              </Button>
              <Tooltip title={why}>
                <Button
                  type="link"
                  size="small"
                  icon={<PlayCircleOutlined />}
                  disabled={off || full}
                  onClick={() => setGenerate({ target: targetOf(row), mode: 'generate' })}
                  data-testid={`project-generate-${row.id}`}
                >
                  {t('project.generate')}
                </Button>
              </Tooltip>
              <Dropdown
                trigger={['click']}
                menu={{
                  items: [
                    {
                      key: 'continue',
                      icon: <PlusSquareOutlined />,
                      disabled: off || full,
                      label: (
                        <Tooltip title={why} placement="left">
                          <span data-testid={`project-continue-${row.id}`}>{t('project.continue')}</span>
                        </Tooltip>
                      ),
                    },
                    {
                      key: 'all',
                      icon: <PlaySquareOutlined />,
                      disabled: off || full,
                      label: (
                        <Tooltip title={why} placement="left">
                          <span data-testid={`project-render-all-${row.id}`}>{t('project.renderAll', { count: maxBatch(row.capacity) })}</span>
                        </Tooltip>
                      ),
                    },
                    { key: 'copy', icon: <CopyOutlined />, label: <span data-testid={`project-copy-${row.id}`}>{t('project.copy')}</span> },
                    { key: 'library', icon: <FolderOpenOutlined />, label: <span data-testid={`project-library-${row.id}`}>{t('project.openLibrary')}</span> },
                    { key: 'template', icon: <AppstoreAddOutlined />, label: <span data-testid={`project-template-${row.id}`}>{t('templates.saveAs')}</span> },
                  ],
                  onClick: async ({ key }) => {
                    if (key === 'continue') setGenerate({ target: targetOf(row, 1), mode: 'continue' });
                    if (key === 'all') setGenerate({ target: targetOf(row), mode: 'all' });
                    if (key === 'library') openLibrary(row);
                    if (key === 'template') {
                      try {
                        const saved = await templating.mutateAsync(row.id);
                        feedback.success(t('templates.saved', { name: saved.name }));
                      } catch (e) {
                        feedback.error(e instanceof Error ? e.message : String(e));
                      }
                    }
                    if (key === 'copy') {
                      try {
                        const copy = await copying.mutateAsync(row.id);
                        feedback.success(t('project.copied', { name: copy.name }));
                      } catch {
                        /* toasted */
                      }
                    }
                  },
                }}
              >
                <Button type="link" size="small" icon={<DownOutlined />} iconPlacement="end" data-testid={`project-more-${row.id}`}>
                  {t('common:more')}
                </Button>
              </Dropdown>
              <Popconfirm
                title={t('project.deleteConfirm', { name: row.name })}
                description={t('project.deleteHelp')}
                okText={t('common:delete')}
                cancelText={t('common:cancel')}
                okButtonProps={{ danger: true, 'data-testid': `project-delete-ok-${row.id}` } as never}
                onConfirm={async () => {
                  try {
                    await removal.mutateAsync(row.id);
                    feedback.success(t('common:deletedSuccessfully'));
                  } catch {
                    /* toasted (422 while its videos render) */
                  }
                }}
              >
                <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid={`project-delete-${row.id}`}>
                  {t('common:delete')}
                </Button>
              </Popconfirm>
            </Space>
          );
        },
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, mode],
  );

  const filterFields = useMemo(() => projectFilterFields(t), [t]);
  const params = useMemo(() => (name.trim() ? { name: name.trim() } : undefined), [name]);

  return (
    <div className="cm-clip-page" data-testid={page.testId}>
      <PageHeader
        title={t(page.title)}
        subTitle={t(page.subtitle)}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)} data-testid="project-add">
            {t(page.add)}
          </Button>
        }
      />
      <DataTable<Project>
        ref={table}
        id="projects"
        queryKey={clipKeys.all}
        api={calls.list}
        params={params}
        columns={columns}
        filterFields={filterFields}
        scrollX={1100}
        onLoad={(list) => setLoaded((l) => ({ n: l.n + 1, rendering: list.rows.some((r) => r.variants?.processing > 0) }))}
        toolbar={
          <Input.Search
            allowClear
            placeholder={t('project.search')}
            onSearch={setName}
            style={{ width: 240 }}
            data-testid="projects-search"
          />
        }
      />
      <ProjectForm
        mode={mode}
        open={editing !== undefined}
        project={editing ?? null}
        onClose={() => setEditing(undefined)}
        onSaved={(saved) => {
          feedback.success(editing ? t('project.saved') : t('project.created', { name: saved.name }));
          setEditing(undefined);
        }}
      />
      <PlanModal
        project={planFor}
        onClose={() => setPlanFor(null)}
        onGenerate={(p, count) => {
          setPlanFor(null);
          setGenerate({ target: targetOf(p, count), mode: 'generate' });
        }}
      />
      <GenerateDialog target={generate?.target ?? null} mode={generate?.mode ?? 'generate'} onClose={() => setGenerate(null)} onDone={onGenerated} />
    </div>
  );
}

/**
 * How fast the project's subtitled videos render: fixed slots make them joins of pieces burned once
 * (green); otherwise each is encoded in full, and the tip says how to change that.
 */
function SlotSpeed({ row }: { row: Project }) {
  const { t } = useClipT();
  return row.fixed_slots ? (
    <Tooltip title={t('project.fixedSlots')}>
      <ThunderboltFilled style={{ color: '#52c41a' }} data-testid={`project-fixed-slots-${row.id}`} />
    </Tooltip>
  ) : (
    <Tooltip title={t('project.movingSlots')}>
      <ThunderboltOutlined style={{ color: '#bfbfbf' }} data-testid={`project-moving-slots-${row.id}`} />
    </Tooltip>
  );
}
