/**
 * The shot groups of a project in playing order (SPEC §5: at least three): add from the merchant's
 * groups, reorder by dragging or with up/down, an optional "max seconds per clip" each, the ready clip
 * count of each group, the capacity they allow and the small-pool warning (at least 80 materials
 * recommended). `advanced` (advanced mode) adds a second line per shot: start, length (the max field),
 * caption and the transition into the next shot (none on the last one).
 */
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, EyeOutlined, HolderOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Empty, Input, InputNumber, Popover, Select, Space, Spin, Tag, Tooltip, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { fetchGroupClips } from '@/api/clip';
import type { ShotGroup } from '@/api/clip/types';
import { formatCount, formatDuration } from '../format';
import { useClipT } from '../i18n';
import {
  capacityOf,
  charCount,
  clearLastTransition,
  DEFAULT_TRANSITION_MS,
  isSmallPool,
  MAX_SHOT_TEXT_CHARS,
  MIN_GROUPS,
  moveRow,
  poolOf,
  RECOMMENDED_POOL,
  shotProblem,
  TRANSITION_MS_MAX,
  TRANSITION_MS_MIN,
  TRANSITIONS,
  type GroupRow,
} from '../rules';

export interface GroupPickerProps {
  value?: GroupRow[];
  onChange?: (rows: GroupRow[]) => void;
  /** The merchant's shot groups. */
  groups: ShotGroup[];
  loading?: boolean;
  /** Advanced mode: start, length, caption and transition per shot. */
  advanced?: boolean;
}

/** The transition select's "none" (a hard cut). */
const NO_TRANSITION = '';

function ClipsPopover({ group }: { group: ShotGroup }) {
  const { t } = useClipT();
  const clips = useQuery({ queryKey: ['clip', 'groupClips', group.id], queryFn: () => fetchGroupClips(group.id) });
  if (clips.isLoading) return <Spin size="small" />;
  const rows = clips.data?.rows ?? [];
  if (!rows.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('groups.noReadyClips')} />;
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, maxWidth: 420, maxHeight: 300, overflow: 'auto' }} data-testid={`group-clips-${group.id}`}>
      {rows.map((clip) => (
        <div key={clip.id} style={{ width: 72, textAlign: 'center' }}>
          {clip.poster ? (
            <img src={clip.poster} alt={clip.name} style={{ width: 54, height: 96, objectFit: 'cover', borderRadius: 4, background: '#000' }} />
          ) : (
            <div style={{ width: 54, height: 96, margin: '0 auto', borderRadius: 4, background: '#f0f0f0' }} />
          )}
          <Typography.Text ellipsis style={{ display: 'block', fontSize: 12 }} title={clip.name}>
            {clip.name}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {formatDuration(clip.duration_ms)}
          </Typography.Text>
        </div>
      ))}
    </div>
  );
}

export default function GroupPicker({ value, onChange, groups, loading, advanced }: GroupPickerProps) {
  const { t } = useClipT();
  const rows = value ?? [];
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const byId = new Map(groups.map((g) => [g.id, g]));
  const chosen = new Set(rows.map((r) => r.group_id));
  const ready = rows.map((r) => byId.get(r.group_id)?.ready ?? 0);
  const capacity = capacityOf(ready);
  const pool = poolOf(ready);
  const empty = rows.filter((r) => (byId.get(r.group_id)?.ready ?? 0) === 0).map((r) => byId.get(r.group_id)?.name ?? `#${r.group_id}`);

  // advanced: whichever shot ends up last loses its transition (nothing follows it)
  const set = (next: GroupRow[]) => onChange?.(advanced ? clearLastTransition(next) : next);
  const move = (from: number, to: number) => set(moveRow(rows, from, to));
  const patch = (index: number, fields: Partial<GroupRow>) => set(rows.map((r, i) => (i === index ? { ...r, ...fields } : r)));

  const maxField = (row: GroupRow, index: number) => (
    <Space.Compact size="small">
      <InputNumber<number>
        size="small"
        min={0}
        max={3600}
        precision={0}
        value={row.max_s ?? null}
        placeholder={advanced ? t('groups.toEnd') : t('groups.wholeClip')}
        onChange={(v) => patch(index, { max_s: v ?? null })}
        style={{ width: 150 }}
        prefix={<Tooltip title={advanced ? t('groups.lengthTip') : t('groups.maxSecondsTip')}>{advanced ? t('groups.length') : t('groups.maxSeconds')}</Tooltip>}
        suffix="s"
        data-testid={`group-max-${row.group_id}`}
      />
    </Space.Compact>
  );

  /** Advanced mode's second line: start, length, caption, transition and its duration. */
  const shotLine = (row: GroupRow, index: number): ReactNode => {
    const last = index === rows.length - 1;
    const problem = shotProblem(row, index, rows.length);
    const id = row.group_id;
    return (
      <div className="cm-group-shot" data-testid={`group-shot-${id}`}>
        <InputNumber<number>
          size="small"
          min={0}
          max={3600}
          step={0.5}
          precision={1}
          value={row.start_s ?? null}
          placeholder="0"
          status={problem === 'badStart' ? 'error' : undefined}
          onChange={(v) => patch(index, { start_s: v ?? null })}
          style={{ width: 130 }}
          prefix={<Tooltip title={t('groups.startTip')}>{t('groups.start')}</Tooltip>}
          suffix="s"
          data-testid={`group-start-${id}`}
        />
        {maxField(row, index)}
        <Input
          size="small"
          allowClear
          value={row.text ?? ''}
          placeholder={t('groups.captionPlaceholder')}
          status={problem === 'textTooLong' ? 'error' : undefined}
          onChange={(e) => patch(index, { text: e.target.value })}
          count={{
            show: true,
            max: MAX_SHOT_TEXT_CHARS,
            strategy: charCount,
            exceedFormatter: (text, { max }) => Array.from(text).slice(0, max).join(''),
          }}
          className="cm-group-caption"
          prefix={<Typography.Text type="secondary">{t('groups.caption')}</Typography.Text>}
          data-testid={`group-text-${id}`}
        />
        <Tooltip title={last ? t('groups.transitionLast') : undefined}>
          <Space.Compact size="small">
            <Select<string>
              size="small"
              disabled={last}
              value={row.transition ?? NO_TRANSITION}
              status={problem === 'lastTransition' || problem === 'badTransition' ? 'error' : undefined}
              onChange={(v) =>
                patch(index, v ? { transition: v as GroupRow['transition'], transition_ms: row.transition_ms ?? DEFAULT_TRANSITION_MS } : { transition: null })
              }
              options={[
                { value: NO_TRANSITION, label: t('groups.transitionNone') },
                ...TRANSITIONS.map((k) => ({ value: k, label: t(`groups.transitions.${k}`) })),
              ]}
              prefix={t('groups.transition')}
              popupMatchSelectWidth={false}
              style={{ width: 190 }}
              data-testid={`group-transition-${id}`}
            />
            <InputNumber<number>
              size="small"
              min={TRANSITION_MS_MIN}
              max={TRANSITION_MS_MAX}
              step={100}
              precision={0}
              disabled={last || !row.transition}
              value={row.transition ? (row.transition_ms ?? DEFAULT_TRANSITION_MS) : null}
              status={problem === 'badTransitionMs' ? 'error' : undefined}
              onChange={(v) => patch(index, { transition_ms: v ?? null })}
              suffix="ms"
              aria-label={t('groups.transitionMs')}
              style={{ width: 100 }}
              data-testid={`group-transition-ms-${id}`}
            />
          </Space.Compact>
        </Tooltip>
        {problem ? (
          <Typography.Text type="danger" data-testid={`group-problem-${id}`}>
            {t(`form.shots.${problem}`, {
              n: index + 1,
              max: problem === 'badTransitionMs' ? TRANSITION_MS_MAX : MAX_SHOT_TEXT_CHARS,
              min: TRANSITION_MS_MIN,
            })}
          </Typography.Text>
        ) : null}
      </div>
    );
  };

  return (
    <div className="cm-group-picker" data-testid="group-picker">
      <Select<number>
        showSearch={{ optionFilterProp: 'label' }}
        loading={loading}
        placeholder={t('groups.add')}
        // Always empty: a pick becomes a row below. (Remounting it to clear it lost a quick second pick
        // on a slow machine: the click landed in the old list while it went away.)
        value={null}
        style={{ width: '100%', marginBottom: 8 }}
        onChange={(id) => id !== undefined && id !== null && set([...rows, { group_id: id, max_s: null }])}
        options={groups.map((g) => ({ value: g.id, label: g.name, disabled: chosen.has(g.id), ready: g.ready, count: g.count }))}
        optionRender={(option) => (
          <Space style={{ width: '100%', justifyContent: 'space-between' }} data-testid={`group-option-${option.value}`}>
            <span>{option.label}</span>
            <Typography.Text type="secondary">{t('groups.readyOf', { ready: option.data.ready, count: option.data.count })}</Typography.Text>
          </Space>
        )}
        notFoundContent={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('groups.none')} />}
        data-testid="group-picker-add"
      />
      {rows.length ? (
        <ol className="cm-group-list" data-testid="group-list">
          {rows.map((row, index) => {
            const group = byId.get(row.group_id);
            const head = (
              <>
                <HolderOutlined className="cm-group-handle" aria-label={t('groups.drag')} />
                <span className="cm-group-index">{index + 1}</span>
                <Typography.Text strong ellipsis className="cm-group-name" title={group?.name}>
                  {group?.name ?? `#${row.group_id}`}
                </Typography.Text>
                <Tag color={group && group.ready > 0 ? 'blue' : 'red'} data-testid={`group-ready-${row.group_id}`}>
                  {t('groups.ready', { count: group?.ready ?? 0 })}
                </Tag>
                {advanced ? null : maxField(row, index)}
                <Space size={0} className="cm-group-actions">
                  {group ? (
                    <Popover trigger="click" title={group.name} content={<ClipsPopover group={group} />} destroyOnHidden>
                      <Button type="text" size="small" icon={<EyeOutlined />} aria-label={t('groups.viewClips')} data-testid={`group-view-${row.group_id}`} />
                    </Popover>
                  ) : null}
                  <Button
                    type="text"
                    size="small"
                    icon={<ArrowUpOutlined />}
                    disabled={index === 0}
                    aria-label={t('groups.up')}
                    onClick={() => move(index, index - 1)}
                    data-testid={`group-up-${row.group_id}`}
                  />
                  <Button
                    type="text"
                    size="small"
                    icon={<ArrowDownOutlined />}
                    disabled={index === rows.length - 1}
                    aria-label={t('groups.down')}
                    onClick={() => move(index, index + 1)}
                    data-testid={`group-down-${row.group_id}`}
                  />
                  <Button
                    type="text"
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('groups.remove')}
                    onClick={() => set(rows.filter((_, i) => i !== index))}
                    data-testid={`group-remove-${row.group_id}`}
                  />
                </Space>
              </>
            );
            return (
              <li
                key={row.group_id}
                className={`cm-group-row${advanced ? ' cm-group-row-advanced' : ''}${over === index && dragging !== null && dragging !== index ? ' cm-group-row-over' : ''}`}
                data-testid={`group-row-${row.group_id}`}
                data-index={index}
                draggable
                onDragStart={(e) => {
                  setDragging(index);
                  e.dataTransfer.effectAllowed = 'move';
                  e.dataTransfer.setData('text/plain', String(index));
                }}
                onDragOver={(e) => {
                  e.preventDefault();
                  setOver(index);
                }}
                onDragLeave={() => setOver((o) => (o === index ? null : o))}
                onDrop={(e) => {
                  e.preventDefault();
                  const from = dragging ?? Number(e.dataTransfer.getData('text/plain'));
                  if (Number.isInteger(from)) move(from, index);
                  setDragging(null);
                  setOver(null);
                }}
                onDragEnd={() => {
                  setDragging(null);
                  setOver(null);
                }}
              >
                {advanced ? (
                  <>
                    <div className="cm-group-line">{head}</div>
                    {shotLine(row, index)}
                  </>
                ) : (
                  head
                )}
              </li>
            );
          })}
        </ol>
      ) : null}
      <div className="cm-group-summary" data-testid="group-summary">
        <span data-testid="group-count">{t('groups.chosen', { count: rows.length, min: MIN_GROUPS })}</span>
        <span data-testid="group-pool">{t('groups.pool', { count: pool })}</span>
        <span data-testid="group-capacity" data-capacity={capacity}>
          {t('groups.capacity', { count: capacity, value: formatCount(capacity) })}
        </span>
      </div>
      {rows.length && empty.length ? (
        <Alert type="error" showIcon style={{ marginTop: 8 }} title={t('groups.emptyGroups', { names: empty.join(', ') })} data-testid="group-empty-warning" />
      ) : null}
      {rows.length && isSmallPool(ready) ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginTop: 8 }}
          title={t('groups.smallPool', { min: RECOMMENDED_POOL, count: pool })}
          data-testid="group-pool-warning"
        />
      ) : null}
    </div>
  );
}
