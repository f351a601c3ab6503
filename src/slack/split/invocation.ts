/** One `/split` to carry out: typed now, or saved while the person linked their account. */
export interface SplitInvocation {
  team_id: string;
  user_id: string;
  channel_id: string;
  text: string;
  /** Where the answer goes when it is carried out later. */
  response_url?: string | undefined;
}
