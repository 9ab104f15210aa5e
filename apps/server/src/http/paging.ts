import type { FastifyReply } from 'fastify';

/** Sets Peatio's paging headers on a list answer. */
export function paged(reply: FastifyReply, total: number, page: number, limit: number): void {
  reply.header('Total', total).header('Page', page).header('Per-Page', limit);
}
