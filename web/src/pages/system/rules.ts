/** The system area's form limits: the server's, from the API document's `x-limits`. */
import { limits } from '@/api/limits';

/** SMS gateway: key ids, template codes, app id, region and address; the sign name. */
export const SMS_FIELD_MAX = limits.system.SMS_FIELD_MAX;
export const SMS_SIGN_NAME_MAX = limits.system.SMS_SIGN_NAME_MAX;
/** An 11-digit mainland mobile number (the server's `validate::mobile`). */
export const MOBILE = /^1[3-9]\d{9}$/;
