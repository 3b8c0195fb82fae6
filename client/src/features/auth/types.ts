export type User = { id: number; username: string; email?: string };

export type AuthResponse = { access_token: string; user: User };
