import type { AppRoute } from '../types';

/**
 * AI create (docs/api-ai.md, SPEC §2 "AI create"): one page serves every AI-voice route. /ai_voice is
 * in both route tables and the menu; /ai_index_new, /NewAiVoiceIndex, /AiVoiceIndex, /ai_voice_new and
 * /new_ai_create are zh-cn versions of the same screen, /ai_index the English one (hidden routes that
 * open it; docs/spec-decisions.md "AI voice").
 */
const VOICE = 'ai/MerchantDub/*';
const load = () => import('@/pages/ai/voice');

const alias = (path: string, lang: 'zh-CN' | 'en'): AppRoute => ({
  path,
  meta: { title: 'menu.aiVoice', icon: 'AudioOutlined', permission: VOICE, hidden: true, lang, menuPath: '/ai_voice' },
  load,
});

const routes: AppRoute[] = [
  { path: '/ai_voice', meta: { title: 'menu.aiVoice', icon: 'AudioOutlined', permission: VOICE }, load },
  alias('/ai_index_new', 'zh-CN'),
  alias('/NewAiVoiceIndex', 'zh-CN'),
  alias('/AiVoiceIndex', 'zh-CN'),
  alias('/ai_voice_new', 'zh-CN'),
  alias('/new_ai_create', 'zh-CN'),
  alias('/ai_index', 'en'),
];

export default routes;
