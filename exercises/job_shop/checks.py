"""The job shop exercise's answer check: a schedule that keeps every job's order and every machine to one
task at a time, and ends at the instance's optimal makespan."""


def check_schedule(answer, data, expected):
    """ "" when the start times `answer` (answer[i][j]: the start of job i's task j) are an optimal schedule,
    else what is wrong, in one line."""
    durations, machines = data["durations"], data["machines"]
    jobs, steps = len(durations), len(durations[0])
    if len(answer) != jobs or any(len(row) != steps for row in answer):
        return f"the start times should be {jobs}x{steps}, one per task"
    if any(start < 0 for row in answer for start in row):
        return "a task starts before time 0"
    for i in range(jobs):
        for j in range(steps - 1):
            if answer[i][j] + durations[i][j] > answer[i][j + 1]:
                return f"job {i}: task {j + 1} starts at {answer[i][j + 1]}, before task {j} ends ({answer[i][j] + durations[i][j]})"
    for k in range(steps):
        tasks = sorted(
            (answer[i][j], answer[i][j] + durations[i][j], i, j)
            for i in range(jobs)
            for j in range(steps)
            if machines[i][j] == k
        )
        for (_, end, i, j), (start, _, i2, j2) in zip(tasks, tasks[1:]):
            if start < end:
                return f"machine {k} runs job {i}'s task {j} and job {i2}'s task {j2} at once (at time {start})"
    makespan = max(answer[i][-1] + durations[i][-1] for i in range(jobs))
    if "optimum" in expected and makespan != expected["optimum"]:
        return f"the schedule ends at {makespan}; the shortest ends at {expected['optimum']}"
    return ""
