<?php
/*
 * A scratch Laravel application (Illuminate\Foundation\Application, the
 * config/cache.php beside this file, the bridge's service provider as package
 * discovery would register it) that takes locks through the framework's own
 * features, one per mode:
 *   block       Cache::lock('report', 60)->block(30, fn)
 *   schedule    a scheduled callback ->withoutOverlapping()->onOneServer(), run
 *               the way schedule:run runs a due event
 *   overlap     the same with ->withoutOverlapping() only
 *   middleware  a queued job through Illuminate\Queue\Middleware\WithoutOverlapping
 * Prints "waiting" before it asks for the lock, "run PID" when the guarded work
 * starts, then waits for a line on stdin before the work ends ("done"); a mode
 * whose lock is taken elsewhere prints "skipped" (schedule) or "released N"
 * (middleware: the job goes back on the queue). Driven by
 * bridges/tests/Apps/LaravelAppTest.php with the vendor/ of a Composer leg:
 *   DLOCK_BRIDGES_VENDOR=.../vendor DLOCK_TEST_HOSTS=... php -d extension=dlock.so app.php MODE
 */
declare(strict_types=1);

require getenv('DLOCK_BRIDGES_VENDOR') . '/autoload.php';

use Illuminate\Console\Scheduling\Schedule;
use Illuminate\Support\Facades\Cache;

$app = new Illuminate\Foundation\Application(__DIR__);
$app->instance('config', new Illuminate\Config\Repository([
    'app' => ['timezone' => 'UTC'],
    'cache' => require __DIR__ . '/config/cache.php',
]));
Illuminate\Support\Facades\Facade::setFacadeApplication($app);
$app->register(Illuminate\Cache\CacheServiceProvider::class);
$app->register(Dlock\Bridge\Laravel\DlockServiceProvider::class);
$app->boot();

$say = function (string $line): void {
    fwrite(STDOUT, $line . "\n");
    fflush(STDOUT);
};
$work = function () use ($say): string {
    $say('run ' . getmypid());
    fgets(STDIN); // the test says when the guarded work ends
    $say('done');
    return 'worked';
};

switch ($argv[1] ?? '') {
    case 'block':
        $say('waiting');
        Cache::lock('report', 60)->block(30, $work);
        break;

    case 'schedule':
    case 'overlap':
        $schedule = new Schedule('UTC');
        $ran = false;
        $event = $schedule->call(function () use ($work, &$ran): void {
            $ran = true;
            $work();
        })->name('nightly-report')->everyMinute()->withoutOverlapping();
        if ($argv[1] === 'schedule') {
            $event->onOneServer();
        }
        $say('waiting');
        // what ScheduleRunCommand does with a due event
        $startedAt = Illuminate\Support\Carbon::now();
        if ($event->onOneServer && !$schedule->serverShouldRun($event, $startedAt)) {
            $say('skipped onOneServer');
            break;
        }
        $event->run($app);
        if (!$ran) {
            $say('skipped withoutOverlapping');
        }
        break;

    case 'middleware':
        $job = new class {
            public ?int $releasedAfter = null;

            public function release($delay = 0): void
            {
                $this->releasedAfter = (int) $delay;
            }
        };
        $say('waiting');
        (new Illuminate\Queue\Middleware\WithoutOverlapping('import-42', 7))->handle($job, fn () => $work());
        if ($job->releasedAfter !== null) {
            $say('released ' . $job->releasedAfter);
        }
        break;

    default:
        fwrite(STDERR, "usage: app.php block|schedule|overlap|middleware\n");
        exit(2);
}
