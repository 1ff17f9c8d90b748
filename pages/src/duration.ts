import { currentLanguage } from './i18n/page-language';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** "6 hours", "1 Tag", "7 jours", "12 時間": Intl writes a duration's unit and its plural. */
export function durationLabel(ms: number): string {
  const [unit, amount] = ms % DAY_MS === 0 ? (['day', ms / DAY_MS] as const) : (['hour', ms / HOUR_MS] as const);
  return new Intl.NumberFormat(currentLanguage(), { style: 'unit', unit, unitDisplay: 'long' }).format(amount);
}
