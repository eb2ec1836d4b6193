/** Filter drawer fields of the engagement lists (docs/api-engagement.md). */
import type { TFunction } from 'i18next';
import { dateRangeField, optionsField, textField } from '@/components/FilterDrawer/fields';
import type { FilterField } from '@/components/FilterDrawer/model';

const COMMENT_PLATFORMS = ['dy', 'sph', 'xhs'];
const INTENTS = ['purchase', 'contact', 'spam'];

/** Comments: platform, account, video, time, replied or not, intent, status, text. */
export function commentFilterFields(t: TFunction, accounts: { value: number; label: string }[]): FilterField[] {
  return [
    optionsField('platform', t('engagement:comment.platform'), COMMENT_PLATFORMS.map((p) => ({ value: p, label: t(`engagement:platform.${p}`) }))),
    optionsField('account_id', t('engagement:comment.account'), accounts),
    textField('item_title', t('engagement:comment.video')),
    dateRangeField('created_at', t('engagement:comment.time')),
    optionsField('replied', t('engagement:comment.replied'), [
      { value: '1', label: t('engagement:comment.repliedYes') },
      { value: '0', label: t('engagement:comment.repliedNo') },
    ]),
    optionsField('intent', t('engagement:comment.intent'), INTENTS.map((i) => ({ value: i, label: t(`engagement:intent.${i}`) }))),
    optionsField('status', t('engagement:comment.status'), ['visible', 'hidden', 'spam'].map((s) => ({ value: s, label: t(`engagement:status.${s}`) }))),
    textField('content', t('engagement:comment.content'), { selected: true }),
  ];
}

/** Leads: state, source, platform, customer, content, phone, time. */
export function leadFilterFields(t: TFunction): FilterField[] {
  return [
    optionsField('state', t('engagement:lead.state'), ['new', 'contacted', 'converted', 'invalid'].map((s) => ({ value: s, label: t(`engagement:lead.states.${s}`) })), { selected: true }),
    optionsField('source', t('engagement:lead.source'), ['comment', 'message'].map((s) => ({ value: s, label: t(`engagement:lead.sources.${s}`) }))),
    optionsField('platform', t('engagement:comment.platform'), COMMENT_PLATFORMS.map((p) => ({ value: p, label: t(`engagement:platform.${p}`) }))),
    textField('name', t('engagement:lead.name')),
    textField('content', t('engagement:lead.content')),
    textField('phone', t('engagement:lead.phone')),
    dateRangeField('created_at', t('engagement:lead.time')),
  ];
}
