// The customer app area as other areas see it: what became of an event's customer message, node by node.

export { MessageDelivery } from './message-delivery.tsx';
