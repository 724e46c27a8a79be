/** The spam filter's stored state (Akismet's options): the key and the strictness setting. */
export class SpamFilterState {
  key: string | null = null;
  /** Akismet reads `get_option('akismet_strictness', '1')`: true until set. */
  strictness = true;
}
