//! The queues a priority dispatcher takes its commands from: a bounded
//! [`CommandQueue`] per priority, in [`PriorityQueues`], which hands
//! out the highest priority's commands first. A full queue applies the
//! channel's [`OverflowPolicy`], as a consumer's queue of the standard
//! channel does, and gives back what it dropped so that the caller can
//! count it against its consumer (or disconnect that consumer).
//!
//! The queues are plain data: the threads that fill and serve them (and
//! the lock around them) are the channel's.

use std::collections::VecDeque;

use crate::config::OverflowPolicy;

use super::commands::{Command, Priority};

/// What became of a command offered to a queue.
#[derive(Debug, Clone, PartialEq)]
pub enum Pushed<C> {
    /// Queued.
    Queued,
    /// Queued, after dropping the oldest command, given back
    /// ([`OverflowPolicy::DropOldest`]).
    DroppedOldest(C),
    /// Not queued: the queue was full ([`OverflowPolicy::DropNewest`]).
    DroppedNewest(C),
    /// Not queued: the queue was full and its consumer is to be
    /// disconnected ([`OverflowPolicy::DisconnectConsumer`]).
    Overflowed(C),
}

/// A bounded first-in, first-out queue of commands, its memory allocated
/// when it is made.
#[derive(Debug)]
pub struct CommandQueue<C> {
    commands: VecDeque<C>,
    capacity: usize,
    policy: OverflowPolicy,
    dropped: u64,
}

impl<C> CommandQueue<C> {
    /// An empty queue of `capacity` commands (at least one).
    pub fn new(capacity: usize, policy: OverflowPolicy) -> CommandQueue<C> {
        let capacity = capacity.max(1);
        CommandQueue {
            commands: VecDeque::with_capacity(capacity),
            capacity,
            policy,
            dropped: 0,
        }
    }

    /// Offers `command`; never grows past the capacity.
    pub fn push(&mut self, command: C) -> Pushed<C> {
        if self.commands.len() < self.capacity {
            self.commands.push_back(command);
            return Pushed::Queued;
        }
        self.dropped += 1;
        match self.policy {
            OverflowPolicy::DropOldest => {
                let oldest = self.commands.pop_front();
                self.commands.push_back(command);
                match oldest {
                    Some(old) => Pushed::DroppedOldest(old),
                    None => Pushed::Queued,
                }
            }
            OverflowPolicy::DropNewest => Pushed::DroppedNewest(command),
            OverflowPolicy::DisconnectConsumer => Pushed::Overflowed(command),
        }
    }

    /// The oldest command.
    pub fn pop(&mut self) -> Option<C> {
        self.commands.pop_front()
    }

    /// Takes out every command for which `drop` says so (those of a
    /// consumer that disconnected); how many.
    pub fn remove_where(&mut self, mut drop: impl FnMut(&C) -> bool) -> usize {
        let before = self.commands.len();
        self.commands.retain(|c| !drop(c));
        before - self.commands.len()
    }

    /// Commands queued.
    pub fn len(&self) -> usize {
        self.commands.len()
    }

    /// Whether no command is queued.
    pub fn is_empty(&self) -> bool {
        self.commands.is_empty()
    }

    /// Commands dropped (or refused) because the queue was full.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }
}

/// A [`CommandQueue`] per [`Priority`].
#[derive(Debug)]
pub struct PriorityQueues<E> {
    levels: Vec<CommandQueue<Command<E>>>,
}

impl<E> PriorityQueues<E> {
    /// A queue of `capacity` commands for each priority.
    pub fn new(capacity: usize, policy: OverflowPolicy) -> PriorityQueues<E> {
        PriorityQueues {
            levels: (0..Priority::LEVELS)
                .map(|_| CommandQueue::new(capacity, policy))
                .collect(),
        }
    }

    /// Offers `command` to the queue of its priority.
    pub fn push(&mut self, command: Command<E>) -> Pushed<Command<E>> {
        let level = usize::from(command.priority().0).min(Priority::LEVELS - 1);
        self.levels[level].push(command)
    }

    /// The oldest command of the highest priority that has one.
    pub fn pop(&mut self) -> Option<Command<E>> {
        self.levels.iter_mut().rev().find_map(CommandQueue::pop)
    }

    /// The oldest command of `priority`, for a thread that serves only
    /// that priority.
    pub fn pop_at(&mut self, priority: Priority) -> Option<Command<E>> {
        self.levels.get_mut(usize::from(priority.0))?.pop()
    }

    /// The queue of `priority`.
    pub fn level(&self, priority: Priority) -> Option<&CommandQueue<Command<E>>> {
        self.levels.get(usize::from(priority.0))
    }

    /// Takes out the queued commands of a consumer that disconnected.
    pub fn remove_consumer(&mut self, consumer: super::qos::ConsumerId) -> usize {
        self.levels
            .iter_mut()
            .map(|q| q.remove_where(|c| c.consumer() == Some(consumer)))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::super::commands::Delivery;
    use super::super::qos::ConsumerId;
    use super::*;

    fn dispatch(consumer: u64, n: u32, priority: u8) -> Command<u32> {
        Command::Dispatch {
            consumer: ConsumerId(consumer),
            delivery: Delivery::Event(n),
            priority: Priority(priority),
        }
    }

    #[test]
    fn a_full_queue_applies_its_policy_and_gives_back_what_it_dropped() {
        let mut oldest = CommandQueue::new(2, OverflowPolicy::DropOldest);
        assert_eq!(oldest.push(1), Pushed::Queued);
        assert_eq!(oldest.push(2), Pushed::Queued);
        assert_eq!(oldest.push(3), Pushed::DroppedOldest(1));
        assert_eq!(
            (oldest.pop(), oldest.pop(), oldest.pop()),
            (Some(2), Some(3), None)
        );

        let mut newest = CommandQueue::new(1, OverflowPolicy::DropNewest);
        assert_eq!(newest.push(1), Pushed::Queued);
        assert_eq!(newest.push(2), Pushed::DroppedNewest(2));
        let mut strict = CommandQueue::new(1, OverflowPolicy::DisconnectConsumer);
        assert_eq!(strict.push(1), Pushed::Queued);
        assert_eq!(strict.push(2), Pushed::Overflowed(2));
        assert_eq!(
            (oldest.dropped(), newest.dropped(), strict.dropped()),
            (1, 1, 1)
        );
    }

    #[test]
    fn the_highest_priority_is_served_first_and_each_in_order() {
        let mut queues = PriorityQueues::new(8, OverflowPolicy::DropNewest);
        for (n, priority) in [(1, 0), (2, 4), (3, 2), (4, 4), (5, 0)] {
            assert_eq!(queues.push(dispatch(1, n, priority)), Pushed::Queued);
        }
        let order: Vec<u32> = std::iter::from_fn(|| queues.pop())
            .map(|c| match c {
                Command::Dispatch {
                    delivery: Delivery::Event(n),
                    ..
                } => n,
                _ => 0,
            })
            .collect();
        assert_eq!(order, [2, 4, 3, 1, 5]);
    }

    #[test]
    fn a_flood_of_low_priority_commands_leaves_the_high_queue_alone() {
        let mut queues = PriorityQueues::new(4, OverflowPolicy::DropOldest);
        for n in 0..1000 {
            let _ = queues.push(dispatch(1, n, 0));
        }
        assert_eq!(queues.push(dispatch(2, 7, 4)), Pushed::Queued);
        assert_eq!(queues.level(Priority(0)).map(CommandQueue::len), Some(4));
        assert_eq!(
            queues.level(Priority(0)).map(CommandQueue::dropped),
            Some(996)
        );
        assert_eq!(queues.pop_at(Priority::HIGHEST), Some(dispatch(2, 7, 4)));
        assert_eq!(queues.remove_consumer(ConsumerId(1)), 4);
        assert_eq!(queues.pop(), None);
    }
}
