/** Help centre articles: six topics (SPEC.md §2), each a title and a short body, in twenty locales. */

export const HELP_TOPICS = ['register', 'topup', 'withdraw', 'vip', 'password', 'forgotKey'] as const;
export type HelpTopic = (typeof HELP_TOPICS)[number];

export type HelpArticles = Readonly<Record<HelpTopic, readonly [title: string, body: string]>>;
