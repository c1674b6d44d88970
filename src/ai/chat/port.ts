// The chat-model port: answers a question from numbered passages, citing them as [n].
export interface Passage {
  n: number;
  title: string | null;
  text: string;
}

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface ChatModel {
  /** Reported as `model` in answers. */
  readonly id: string;
  /** True when answers are assembled from retrieved sentences rather than written by a model. */
  readonly extractive: boolean;
  answer(question: string, passages: Passage[], opts?: { signal?: AbortSignal }): Promise<string>;
  /** Free-form completion (script writing); absent on the builtin extractive model. */
  complete?(
    messages: ChatMessage[],
    opts?: { json?: boolean; signal?: AbortSignal; temperature?: number },
  ): Promise<string>;
}
