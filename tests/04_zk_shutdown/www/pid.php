<?php echo getmypid(), "\n";
