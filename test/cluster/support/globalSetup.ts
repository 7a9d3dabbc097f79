/**
 * vitest globalSetup of the cluster suite: a local Redis Cluster for the run (3 masters,
 * 3 replicas), named to the test processes by REDIS_CLUSTER_NODES and REDIS_URL, which they
 * inherit; stopped, and its dirs removed, at the end.
 */
import { startLocalCluster } from './localCluster.ts';

export default async function setup(): Promise<() => Promise<void>> {
  const cluster = await startLocalCluster();
  process.env.REDIS_CLUSTER_NODES = cluster.seeds;
  process.env.REDIS_URL = cluster.url;
  return () => cluster.stop();
}
