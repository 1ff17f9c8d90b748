import { SECRET_DEFAULTS, SECRET_TTLS, type SecretTtl } from '../../contract/limits';
import { currentLanguage, onLanguageChange } from './i18n/page-language';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** "6 hours", "1 Tag", "7 jours", "12 時間": Intl writes a duration's unit and its plural. */
function durationLabel(ms: number): string {
  const [unit, amount] = ms % DAY_MS === 0 ? (['day', ms / DAY_MS] as const) : (['hour', ms / HOUR_MS] as const);
  return new Intl.NumberFormat(currentLanguage(), { style: 'unit', unit, unitDisplay: 'long' }).format(amount);
}

/** Fills a ttl choice with every SECRET_TTLS name, labelled in the page's language. */
export function fillTtlChoices(select: HTMLSelectElement): void {
  for (const [value, ms] of Object.entries(SECRET_TTLS) as [SecretTtl, number][]) {
    const option = new Option('', value, value === SECRET_DEFAULTS.ttl, value === SECRET_DEFAULTS.ttl);
    select.add(option);
    onLanguageChange(() => (option.text = durationLabel(ms)));
  }
}

export const chosenTtl = (select: HTMLSelectElement): SecretTtl =>
  Object.hasOwn(SECRET_TTLS, select.value) ? (select.value as SecretTtl) : SECRET_DEFAULTS.ttl;
